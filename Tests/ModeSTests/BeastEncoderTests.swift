import Foundation
import ModeS
import TestSupport
import Testing
import Tracking

@testable import ModeS

@Suite struct BeastEncoderTests {
    /// Frames whose timestamp, signal byte and payload contain the escape byte 0x1A.
    static let awkward: [Frame] = [
        Frame(
            bits: ModeSBits(hex: "8D4840D6202CC371C32CE0576098")!, address: 0x4840D6,
            timestamp: 0x1A_1A1A_1A1A, signalLevel: 20 * log10(26.0 / 255)),  // signal byte 0x1A
        OutputTestFrames.allCall(icao: 0x1A1A1A),
        Frame(
            bits: OutputTestFrames.altitudeReply(icao: 0x3C1A65, feet: 2500).bits, address: 0x3C1A65,
            timestamp: 0x1_FFFF_1A00_0000, signalLevel: 0),  // beyond 48 bits: wraps
        Frame(
            bits: OutputTestFrames.identityReply(df: 21, icao: 0x1A0001, squawk: "7700").bits, address: 0x1A0001,
            timestamp: 12_000_000 + 0x1A, signalLevel: -35.5)
    ]

    @Test func framesRoundTripThroughTheBeastParser() throws {
        var stream: [UInt8] = []
        for frame in Self.awkward { BeastEncoder.append(frame, to: &stream) }
        // Feed the stream in every possible two-piece split: escapes may straddle reads.
        for cut in 0...stream.count {
            var parser = BeastFrameParser()
            var received: [BeastFrameParser.Received] = []
            stream[..<cut].withUnsafeBytes { parser.parse($0) { received.append($0) } }
            stream[cut...].withUnsafeBytes { parser.parse($0) { received.append($0) } }
            #expect(parser.malformed == 0, "cut at \(cut)")
            try #require(received.count == Self.awkward.count, "cut at \(cut)")
            for (sent, got) in zip(Self.awkward, received) {
                #expect(got.bits == sent.bits)
                #expect(got.timestamp == sent.timestamp & 0xFFFF_FFFF_FFFF)
                #expect(
                    BeastEncoder.signalByte(dBFS: got.signalLevel) == BeastEncoder.signalByte(dBFS: sent.signalLevel))
            }
        }
    }

    @Test func layoutIsEscapeTypeTimestampSignalPayload() {
        let frame = Frame(
            bits: ModeSBits(hex: "8D4840D6202CC371C32CE0576098")!, address: 0x4840D6,
            timestamp: 0x0102_0304_0506, signalLevel: -6)
        let bytes = BeastEncoder.encode(frame)
        #expect(bytes.count == 2 + 6 + 1 + 14)
        #expect(bytes[0] == 0x1A)
        #expect(bytes[1] == UInt8(ascii: "3"))
        #expect(Array(bytes[2..<8]) == [1, 2, 3, 4, 5, 6])
        #expect(bytes[8] == BeastEncoder.signalByte(dBFS: -6))
        #expect(Array(bytes[9...]) == (0..<14).map { frame.bits.byte($0) })

        let short = BeastEncoder.encode(OutputTestFrames.allCall(icao: 0x4840D6))
        #expect(short[1] == UInt8(ascii: "2"))
        #expect(short.count == 2 + 6 + 1 + 7)
    }

    @Test func everyEscapeInsideAFrameIsDoubled() {
        for frame in Self.awkward {
            let bytes = BeastEncoder.encode(frame)
            var body: [UInt8] = []
            for index in 0..<6 {
                body.append(UInt8(truncatingIfNeeded: (frame.timestamp & 0xFFFF_FFFF_FFFF) >> UInt64(40 - 8 * index)))
            }
            body.append(BeastEncoder.signalByte(dBFS: frame.signalLevel))
            body += (0..<frame.bits.byteCount).map { frame.bits.byte($0) }
            let escapes = body.filter { $0 == 0x1A }.count
            #expect(escapes > 0)
            #expect(bytes.count == 2 + body.count + escapes)
            // After the type byte, 0x1A only ever comes in pairs.
            var index = 2
            while index < bytes.count {
                if bytes[index] == 0x1A {
                    #expect(index + 1 < bytes.count && bytes[index + 1] == 0x1A, "lone escape at \(index)")
                    index += 2
                } else {
                    index += 1
                }
            }
        }
    }

    @Test func signalByteIsAmplitudeScaledTo255() {
        #expect(BeastEncoder.signalByte(dBFS: 0) == 255)
        #expect(BeastEncoder.signalByte(dBFS: 3) == 255)  // saturates
        #expect(BeastEncoder.signalByte(dBFS: 20 * log10(0.5)) == 128)  // 127.5 rounds up
        #expect(BeastEncoder.signalByte(dBFS: 20 * log10(10.0 / 255)) == 10)
        #expect(BeastEncoder.signalByte(dBFS: -80) == 1)  // a received frame never reads as "no level"
        #expect(BeastEncoder.signalByte(dBFS: -.infinity) == 0)
        #expect(BeastEncoder.signalByte(dBFS: .nan) == 0)
        // Monotonic over the useful range.
        var previous: UInt8 = 0
        for tenths in stride(from: -500, through: 0, by: 1) {
            let byte = BeastEncoder.signalByte(dBFS: Double(tenths) / 10)
            #expect(byte >= previous)
            previous = byte
        }
    }
}
