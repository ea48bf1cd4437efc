import AsyncHTTPClient
import Foundation
import History
import TestSupport
import Testing

extension EndToEnd {
    /// The history of a running daemon: committed batches survive SIGKILL at any moment, the
    /// store opens afterwards without being judged damaged, and the web server answers from it.
    @Suite(.tags(.slow)) struct HistoryEndToEndTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path

        /// Rows of `table` in the store in `directory`, and the result of its integrity check.
        func inspect(_ directory: String, table: String) throws -> (rows: Int64, check: String?) {
            let connection = try SQLiteConnection(
                path: HistoryStore.path(in: directory), readOnly: true, create: false)
            return (
                try connection.integer("SELECT count(*) FROM \(table)") ?? -1,
                try connection.text("PRAGMA integrity_check")
            )
        }

        @Test func killedMidRunTheStoreKeepsEveryCommittedBatch() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-history-kill-\(UUID().uuidString.prefix(8))"
            ).path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var previous: Int64 = 0
            var generator = SystemRandomNumberGenerator()
            for run in 0..<6 {
                let daemon = try Daemon([
                    "--replay", sample, "--loop", "--throttle", "--receiver", "52.3,4.76", "--history-dir", directory
                ])
                #expect(daemon.waitFor("history in", timeout: 30), "\(daemon.stderr)")
                // At least one batch (every 5 s), then a kill at a random moment of the next.
                Thread.sleep(forTimeInterval: 8 + Double.random(in: 0..<5, using: &generator))
                _ = daemon.stop(signal: SIGKILL)
                #expect(!daemon.stderr.contains("moved"), "run \(run): \(daemon.stderr)")
                let (rows, check) = try inspect(directory, table: "positions")
                #expect(check == "ok", "run \(run)")
                // Nothing committed before is lost, and every run committed something.
                #expect(rows > previous, "run \(run): \(rows) positions after \(previous)")
                previous = rows
            }
            let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("aside") }
            #expect(aside.isEmpty, "\(aside)")
        }

        @Test func theWebServerAnswersFromTheHistory() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-history-web-\(UUID().uuidString.prefix(8))"
            ).path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let json = directory + "-json"
            try FileManager.default.createDirectory(atPath: json, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: json) }
            let daemon = try Daemon([
                "--replay", sample, "--loop", "--throttle", "--receiver", "52.3,4.76", "--history-dir", directory,
                "--http", "127.0.0.1:0", "--json-dir", json
            ])
            defer { _ = daemon.stop() }
            let port = try WebEndToEndTests.webPort(of: daemon)
            #expect(daemon.waitFor("history in", timeout: 30), "\(daemon.stderr)")
            // The first batch after 5 s, outline.json beside aircraft.json 10 s after the start.
            try await Task.sleep(for: .seconds(12))
            let outline = try Data(contentsOf: URL(fileURLWithPath: json + "/outline.json"))
            let range = try #require(try JSONSerialization.jsonObject(with: outline) as? [String: Any])
            let last24h = (range["actualRange"] as? [String: Any])?["last24h"] as? [String: Any]
            let points = try #require(last24h?["points"] as? [[Double]])
            // Aircraft all round a busy airport: many of the 72 sectors, each [lat, lon, alt].
            #expect(points.count > 10 && points.allSatisfy { $0.count == 3 }, "\(points.count) points")
            let tracks = try await MetricsEndToEndTests.get(port, "/data/history/tracks")
            #expect(tracks.status == 200 && tracks.type == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(tracks.body.utf8)) as? [String: Any])
            #expect(((object["positions"] as? [Any])?.count ?? 0) > 0, "\(tracks.body.prefix(300))")
            let refused = try await MetricsEndToEndTests.get(port, "/data/history/tracks?from=1%27%20OR%201=1")
            #expect(refused.status == 400, "\(refused.body)")
        }
    }
}
