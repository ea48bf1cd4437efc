import Foundation
import Logging
import Testing

@testable import Receivers

/// The remembered gain: written atomically, read back, and anything else in its file ignored.
@Suite struct GainMemoryTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gain-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aSavedGainIsReadBackAndTheDirectoryIsMadeWhenMissing() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let memory = GainMemory(directory: base + "/state/aviator-adsb")
        let logger = Logger(label: "test")
        #expect(memory.load(logger: logger) == nil)
        memory.save(44.5, logger: logger)
        #expect(memory.load(logger: logger) == 44.5)
        #expect(try String(contentsOfFile: memory.path, encoding: .utf8) == "44.5\n")
        #expect(!FileManager.default.fileExists(atPath: memory.path + ".new"))
    }

    @Test(arguments: [
        "", "\n", "abc", "nan", "inf", "-inf", "1e400", "61", "-10.5", "44.5 dB", String(repeating: "4", count: 40),
        "\u{0}\u{1}\u{2}"
    ])
    func anythingButAGainInRangeIsIgnored(text: String) throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let memory = GainMemory(directory: base)
        try text.write(toFile: memory.path, atomically: true, encoding: .utf8)
        #expect(memory.load(logger: Logger(label: "test")) == nil)
    }

    @Test func aGainInRangeWithWhitespaceIsRead() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let memory = GainMemory(directory: base)
        try "  -9.9 \n".write(toFile: memory.path, atomically: true, encoding: .utf8)
        #expect(memory.load(logger: Logger(label: "test")) == -9.9)
    }
}
