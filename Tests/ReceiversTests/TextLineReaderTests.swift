import Foundation
import TestSupport
import Testing

@testable import Receivers

/// Lines of any length, from files and pipes, in bounded memory.
@Suite struct TextLineReaderTests {
    static func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func linesEndingsAndALastLineWithoutNewline() throws {
        let file = try Self.temporaryFile("one\ntwo\r\n\nthree")
        defer { try? FileManager.default.removeItem(at: file) }
        let reader = try TextLineReader(path: file.path)
        var lines: [TextLineReader.Line] = []
        while let line = reader.next() { lines.append(line) }
        #expect(lines == [.text("one"), .text("two"), .text(""), .text("three")])
        #expect(reader.readFailure == nil)
    }

    @Test func theLimitIsInclusive() throws {
        let file = try Self.temporaryFile(
            String(repeating: "a", count: 16) + "\n" + String(repeating: "b", count: 17) + "\nc\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let reader = try TextLineReader(path: file.path, maximumLineBytes: 16)
        #expect(reader.next() == .text(String(repeating: "a", count: 16)))
        #expect(reader.next() == .overlong(bytes: 17))
        #expect(reader.next() == .text("c"))
        #expect(reader.next() == nil)
    }

    @Test(.computeBound) func aFiftyMegabyteLineFromAPipeIsDroppedAsItStreams() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let size = 50 << 20
        let writer = Thread {
            var chunk = [UInt8](repeating: UInt8(ascii: ","), count: 1 << 16)
            func send(_ bytes: [UInt8]) {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress! + offset, $0.count - offset) }
                    if written <= 0 { return }
                    offset += written
                }
            }
            send(Array("*8D4840D6202CC371C32CE0576098;\n".utf8))
            var left = size
            while left > 0 {
                if left < chunk.count { chunk = Array(chunk.prefix(left)) }
                send(chunk)
                left -= chunk.count
            }
            send(Array("\n*8D40621D58C386435CC412692AD6;\n".utf8))
            close(writeEnd)
        }
        writer.start()
        let reader = try TextLineReader(path: "/dev/fd/\(readEnd)")
        close(readEnd)
        #expect(reader.next() == .text("*8D4840D6202CC371C32CE0576098;"))
        #expect(reader.next() == .overlong(bytes: size))
        #expect(reader.next() == .text("*8D40621D58C386435CC412692AD6;"))
        #expect(reader.next() == nil)
        #expect(reader.largestLineBuffer <= TextLineReader.defaultMaximumLineBytes)
    }
}
