import ModeS
import TestSupport
import Testing
import Tracking

@testable import ModeS

@Suite struct AVREncoderTests {
    @Test func lineIsStarHexSemicolonNewline() throws {
        let frames = [
            OutputTestFrames.extendedSquitter("8D4840D6202CC371C32CE0576098"),
            OutputTestFrames.allCall(icao: 0xABCDEF),
            OutputTestFrames.identityReply(df: 21, icao: 0x4CA2D1, squawk: "1200")
        ]
        var stream: [UInt8] = []
        for frame in frames {
            let line = AVREncoder.line(frame.bits)
            #expect(line.hasPrefix("*"))
            #expect(line.hasSuffix(";\n"))
            let hex = line.dropFirst().dropLast(2)
            #expect(hex.count == frame.bits.bitCount / 4)
            #expect(hex.allSatisfy { "0123456789ABCDEF".contains($0) }, "upper-case hex: \(line)")
            #expect(ModeSBits(hex: hex) == frame.bits)
            AVREncoder.append(frame.bits, to: &stream)
        }
        #expect(String(decoding: stream, as: UTF8.self) == frames.map { AVREncoder.line($0.bits) }.joined())
        #expect(AVREncoder.line(frames[0].bits) == "*8D4840D6202CC371C32CE0576098;\n")
    }

    @Test func aTimestampMakesTheMLATLine() throws {
        let frame = OutputTestFrames.extendedSquitter("8D4840D6202CC371C32CE0576098")
        let line = AVREncoder.line(frame.bits, timestamp: 0x0001_2345_6789_ABCD)
        // The low 48 bits, 12 digits, in place of the star.
        #expect(line == "@23456789ABCD8D4840D6202CC371C32CE0576098;\n")
        #expect(line.utf8.count <= AVREncoder.maximumLineBytes)
        guard case .success(let parsed) = MessageLine.parse(line.dropLast()) else {
            Issue.record("MessageLine cannot read \(line)")
            return
        }
        #expect(parsed.bits == frame.bits)
    }
}
