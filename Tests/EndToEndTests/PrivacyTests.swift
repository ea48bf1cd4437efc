import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The receiver's position is where the user lives: it goes to the feed and the files
    /// meant to carry it, never into the log.
    @Suite(.tags(.slow)) struct PrivacyTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        @Test func theReceiverPositionNeverReachesTheLog() throws {
            let json = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-privacy-\(UUID().uuidString.prefix(8))"
            ).path
            try FileManager.default.createDirectory(atPath: json, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: json) }
            let socket = json + "/feed.sock"
            // Digits found nowhere else in a log line.
            let daemon = try Daemon([
                "--replay", sample, "--loop", "--throttle", "--receiver", "51.98317,4.38629,12",
                "--log-level", "trace", "--stats-interval", "0.5", "--json-dir", json,
                "--socket", socket
            ])
            defer { _ = daemon.stop() }
            #expect(daemon.waitFor("replay of", timeout: 30))
            let client = try BlockingSocket.connect(path: socket)
            let hello = try #require(client.nextObject())
            // The feed does carry it.
            #expect((hello["receiver"] as? [String: Any])?["lat"] as? Double == 51.98317)
            #expect(daemon.stop(signal: SIGTERM).status == 0)
            let log = daemon.stderr
            #expect(log.contains("debug"), "the log level reached debug")
            for digits in ["98317", "38629", "51.98", "4.386"] {
                #expect(!log.contains(digits), "the log shows \(digits)")
            }
        }
    }
}
