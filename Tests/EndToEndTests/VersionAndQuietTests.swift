import Foundation
import Testing

extension EndToEnd {
    /// `--version` (one version, also in receiver.json) and `--quiet`.
    @Suite struct VersionAndQuietTests {
        @Test func versionIsOneLineAndTheSameEverywhere() throws {
            let result = try BinaryRunner.run(["--version"])
            #expect(result.status == 0)
            let line = result.stdout.trimmingCharacters(in: .newlines)
            #expect(line.wholeMatch(of: /aviator-adsb \d+\.\d+\.\d+/) != nil, "\(line)")
            #expect(try BinaryRunner.run(["run", "--version"]).stdout == result.stdout)

            // receiver.json says the same.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "version-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let daemon = try Daemon([
                "--replay", BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path,
                "--json-dir", folder.path
            ])
            defer { _ = daemon.stop() }
            #expect(daemon.waitFor("replay of"), "\(daemon.stderr)")
            let data = try Data(contentsOf: folder.appendingPathComponent("receiver.json"))
            let receiver = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(receiver["version"] as? String == line)
        }

        @Test func quietLeavesOnlyWarningsAndErrors() throws {
            let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path
            let missing = "/nonexistent-\(UUID().uuidString)/aircraft"
            // An unusable JSON directory is an error, and errors still show.
            let failed = try BinaryRunner.run(["--quiet", "--replay", sample, "--json-dir", missing])
            #expect(failed.status != 0 && failed.stderr.contains(missing), "\(failed.stderr)")

            let daemon = try Daemon(["--quiet", "--replay", sample])
            Thread.sleep(forTimeInterval: 2)
            let stopped = daemon.stop()
            #expect(stopped.status == 0)
            #expect(!daemon.stderr.contains(" info "), "\(daemon.stderr)")
            let loud = try Daemon(["--replay", sample])
            #expect(loud.waitFor("replay of"), "the same run without --quiet logs at info: \(loud.stderr)")
            _ = loud.stop()
        }
    }
}
