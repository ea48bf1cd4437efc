import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct PendingFramesTests {
    func frame(_ address: UInt32) -> Frame {
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 11)
        bits.setField(9, 32, UInt64(address))
        return Frame(bits: CRC.withParity(bits, overlay: 0), address: address)
    }

    /// Frames go out in the order they start, whatever order they were found in.
    @Test func releasesInStartOrder() {
        var pending = PendingFrames()
        pending.append(frame(2), at: 200)
        pending.append(frame(1), at: 100, recovered: true)
        pending.append(frame(3), at: 300)
        var released: [UInt32] = []
        pending.release(before: 250) { released.append($0.address) }
        #expect(released == [1, 2])
        pending.release(before: 1_000) { released.append($0.address) }
        #expect(released == [1, 2, 3])
    }

    /// A frame taken back says whether it was recovered from beneath another reply, so the
    /// statistics can take it back from that count too; one already emitted is not found.
    @Test func takenBackFramesSayWhetherTheyWereRecovered() {
        var pending = PendingFrames()
        pending.append(frame(1), at: 100, recovered: true)
        pending.append(frame(2), at: 200)
        let recovered = pending.remove(frame(1).bits, at: 100)
        #expect(recovered?.recovered == true)
        #expect(recovered?.frame.address == 1)
        let plain = pending.remove(frame(2).bits, at: 200)
        #expect(plain?.recovered == false)
        #expect(pending.remove(frame(2).bits, at: 200) == nil)
        #expect(pending.remove(frame(3).bits, at: 300) == nil)
    }
}
