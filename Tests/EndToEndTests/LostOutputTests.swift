import Foundation
import Testing

extension EndToEnd {
    /// Output that cannot be written (a full disk) is an error, not a silent success.
    @Suite struct LostOutputTests {
        static let fullDevice = "/dev/full"

        static func full() throws -> FileHandle {
            try FileHandle(forWritingTo: URL(fileURLWithPath: fullDevice))
        }

        @Test func decodeToAFullDiskFailsWithOneLine() throws {
            // Enough lines that the output is written during the run, and a few that end it.
            // A file, not standard input: the binary stops reading when its output is lost.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: file) }
            for count in [5000, 1] {
                try Data(String(repeating: "*8D4840D6202CC371C32CE0576098;\n", count: count).utf8).write(to: file)
                let result = try BinaryRunner.run(["decode", file.path], standardOutput: try Self.full())
                #expect(result.status == 1, "\(count) lines")
                #expect(result.stderr == "Error: writing standard output: No space left on device\n", "\(count) lines")
            }
        }

        @Test func demodToAFullDiskFailsWithOneLine() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("sky.cu8").path
            let made = try BinaryRunner.run([
                "simulate", "--out", path, "--duration", "1", "--aircraft", "5", "--seed", "3"
            ])
            #expect(made.status == 0, "\(made.stderr)")
            let normal = try BinaryRunner.run(["demod", path])
            #expect(normal.status == 0 && !normal.stdout.isEmpty)
            let result = try BinaryRunner.run(["demod", path], standardOutput: try Self.full())
            #expect(result.status == 1)
            #expect(result.stderr == "Error: writing standard output: No space left on device\n")
        }
    }
}
