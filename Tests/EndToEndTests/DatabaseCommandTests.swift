import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `aviator-adsb db`: a folder that is not the standing data and a file that is not a
    /// database are one clear error line each; `db check` reads a small database file.
    @Suite struct DatabaseCommandTests {
        @Test func buildFromAFolderThatIsNotTheStandingDataIsOneErrorLine() throws {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(getpid()).gz")
            let result = try BinaryRunner.run(["db", "build", "/nonexistent-standing-data", "-o", output.path])
            #expect(result.status == 1)
            #expect(result.stderr.contains("Error: no folder /nonexistent-standing-data/airlines/schema-01"))
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }

        @Test func checkReportsRowsAndSkippedRows() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("aircraft-\(getpid()).csv")
            try "4ca7b4;EI-DWF;B738;00;BOEING 737-800;2007;Ryanair\nbroken\n".write(
                to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try BinaryRunner.run(["db", "check", "--db-file", file.path])
            #expect(result.status == 0)
            #expect(result.stdout.contains("1 aircraft; skipped: 1 with the wrong number of fields"))
            let missing = try BinaryRunner.run(["db", "check", "--db-file", "/nonexistent.csv.gz"])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("cannot read /nonexistent.csv.gz"))
        }
    }
}
