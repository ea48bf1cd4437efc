import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Signals other than SIGINT and SIGTERM do not stop the daemon.
    @Suite(.tags(.slow)) struct SignalTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        /// Sends `signal` every half second until `text` appears on the daemon's stderr.
        func signal(_ signal: Int32, to daemon: Daemon, until text: String) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, daemon.process.isRunning {
                kill(daemon.process.processIdentifier, signal)
                if daemon.waitFor(text, timeout: 0.5) { return true }
            }
            return false
        }

        @Test func hangUpAndUser1LogAndCarryOn() throws {
            let socket = FileManager.default.temporaryDirectory
                .appendingPathComponent("aviator-signals-\(UUID().uuidString.prefix(8)).sock").path
            let daemon = try Daemon([
                "--replay", sample, "--loop", "--throttle", "--frame-interval", "0.25",
                "--socket", socket
            ])
            defer { _ = daemon.stop() }
            #expect(daemon.waitFor("radar feed on", timeout: 30))
            #expect(signal(SIGHUP, to: daemon, until: "SIGHUP: nothing to reload"))
            #expect(signal(SIGUSR1, to: daemon, until: "SIGUSR1: totals: "))
            #expect(daemon.process.isRunning)
            #expect(FileManager.default.fileExists(atPath: socket))
            let client = try BlockingSocket.connect(path: socket)
            #expect(client.nextObject()?["type"] as? String == "hello")
            var frame: [String: Any]?
            let deadline = Date().addingTimeInterval(20)
            while frame == nil, Date() < deadline, let object = client.nextObject() {
                if object["type"] as? String == "frame" { frame = object }
            }
            #expect(frame != nil)
            let stopped = daemon.stop(signal: SIGTERM)
            #expect(stopped.status == 0)
            #expect(!FileManager.default.fileExists(atPath: socket))
        }
    }
}
