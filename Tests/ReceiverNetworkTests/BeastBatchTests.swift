import ModeS
import ReceiverNetwork
import Testing

@Suite struct BeastBatchTests {
    /// Frames of real DF17 messages, with a 0x1A in the timestamp and in the message.
    static let frames: [Frame] = [
        ("8D40621D58C382D690C8AC2863A7", 0x1A_0000_0001 as UInt64, -3.0),
        ("8D40621D58C386435CC412692AD6", 0x0000_1A1A_0002, -20.5),
        ("8D4840D6202CC371C32CE0576098", 0xFFFF_FFFF_FFFF, -40.0)
    ].map { hex, timestamp, level in
        Frame(bits: ModeSBits(hex: hex)!, address: 0, timestamp: timestamp, signalLevel: level)
    }

    static func payload(sequence: UInt32 = 7, framesBefore: UInt32 = 100, frames: [Frame] = frames) -> [UInt8] {
        var bytes = BeastBatch.header(sequence: sequence, framesBefore: framesBefore)
        for frame in frames { BeastEncoder.append(frame, to: &bytes) }
        return bytes
    }

    @Test func aBatchReadsBackWithItsNumbersAndFrames() throws {
        let batch = try BeastBatch.decode(Self.payload())
        #expect(batch.sequence == 7)
        #expect(batch.framesBefore == 100)
        #expect(batch.frames.map(\.bits) == Self.frames.map(\.bits))
        #expect(batch.frames.map(\.timestamp) == Self.frames.map(\.timestamp))
        for (read, sent) in zip(batch.frames, Self.frames) {
            // The level travels as one signal byte.
            #expect(
                BeastEncoder.signalByte(dBFS: read.signalLevel) == BeastEncoder.signalByte(dBFS: sent.signalLevel),
                "\(read.signalLevel) for \(sent.signalLevel)")
        }
        let empty = try BeastBatch.decode(BeastBatch.header(sequence: .max, framesBefore: 1))
        #expect(empty.frames.isEmpty && empty.sequence == .max)
    }

    @Test func theHeaderIsVersionThenTwoBigEndianNumbers() {
        #expect(
            BeastBatch.header(sequence: 0x0102_0304, framesBefore: 0x0A0B_0C0D) == [
                1, 1, 2, 3, 4, 0x0A, 0x0B, 0x0C, 0x0D
            ])
    }

    @Test func anythingOutOfPlaceDropsTheWholePayload() {
        let good = Self.payload()
        var versionTwo = good
        versionTwo[0] = 2
        var cut = good
        cut.removeLast(3)
        var stray = good
        stray.insert(0x42, at: BeastBatch.headerSize)
        var unknownType = good
        unknownType[BeastBatch.headerSize + 1] = 0x39
        let modeAC = BeastBatch.header(sequence: 0, framesBefore: 0) + [0x1A, 0x31, 0, 0, 0, 0, 0, 1, 0x80, 0x12, 0x34]
        var loneEscape = good
        loneEscape.insert(0x1A, at: BeastBatch.headerSize + 5)
        let cases: [(String, [UInt8])] = [
            ("empty", []), ("short header", [1, 0, 0]), ("version 2", versionTwo), ("cut short", cut),
            ("stray byte", stray), ("unknown type", unknownType), ("Mode A/C", modeAC), ("lone 0x1A", loneEscape)
        ]
        for (what, payload) in cases {
            #expect(throws: NetworkPayloadError.self, "\(what)") { try BeastBatch.decode(payload) }
        }
    }

    @Test func anOversizedPayloadIsRefusedBeforeItIsRead() {
        let huge = Self.payload(frames: Array(repeating: Self.frames[0], count: BeastBatch.maximumPayload / 16))
        #expect(huge.count > BeastBatch.maximumPayload)
        #expect(throws: NetworkPayloadError.oversized(huge.count, limit: BeastBatch.maximumPayload)) {
            try BeastBatch.decode(huge)
        }
    }
}
