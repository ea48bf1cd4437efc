import IQ
import ModeS
import Pipeline
import Simulator
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// The block received while the tuner's gain changed is left out: no frame is decoded from
/// samples on both sides of it, none is lost elsewhere, none is counted twice.
@Suite struct GainChangeTests {
    static let blockSamples = 12_000

    /// Four replies: one inside the first block, one running from the first block into the
    /// second (the change lands in mid-burst), one inside the second, one inside the third.
    static func sky() -> [UInt8] {
        let signal = RectangularSignal(sampleRate: .twoPointFourMega, sampleCount: 3 * blockSamples, seed: 5)
        let replies: [(UInt32, Double)] = [
            (0xA00001, 2_000), (0xA00002, 11_900), (0xA00003, 15_000), (0xA00004, 30_000)
        ]
        return signal.bytes(
            replies.map { address, start in
                .init(
                    bits: RectangularSignal.extendedSquitter(address: address, payload: 0x1234), start: start,
                    amplitude: 40)
            }, format: .cu8)
    }

    /// The addresses heard when the blocks in `skipped` are left out, and the stream.
    static func hear(skipping skipped: Set<Int>) -> (addresses: Set<UInt32>, stream: SampleStream, skippedCounted: Int)
    {
        let tracker = WiredTracker(receiver: nil, clock: { 1_000 })
        let stream = SampleStream(
            format: .cu8, sampleRate: .twoPointFourMega, options: .init(), into: tracker, label: "test")
        var counted = 0
        sky().withUnsafeBytes { raw in
            for index in 0..<3 {
                let range = (2 * blockSamples * index)..<(2 * blockSamples * (index + 1))
                let block = IQBlock(bytes: UnsafeRawBufferPointer(rebasing: raw[range]), arrival: 1_000 + Double(index))
                if skipped.contains(index) { stream.skip(block) } else { stream.process(block) }
                counted += stream.lastBlock.gainChangeSamples
            }
        }
        stream.finish()
        return (Set(tracker.snapshot().aircraft.map(\.icao)), stream, counted)
    }

    @Test func everyReplyIsHeardWithoutAChange() {
        let heard = Self.hear(skipping: [])
        #expect(heard.addresses == [0xA00001, 0xA00002, 0xA00003, 0xA00004])
        #expect(heard.stream.frames == 4)
    }

    @Test func theBlockOfAChangeIsLeftOutAndCounted() {
        let heard = Self.hear(skipping: [1])
        // The reply that ran into the changing block is not joined from either side of it,
        // and the one inside it is gone; the others are heard once each.
        #expect(heard.addresses == [0xA00001, 0xA00004])
        #expect(heard.stream.frames == 2)
        #expect(heard.skippedCounted == Self.blockSamples)
        #expect(heard.stream.demodulator.statistics.droppedSamples == Self.blockSamples)
    }
}
