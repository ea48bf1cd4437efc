import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Clients beyond --max-clients, and more clients than the process has file descriptors:
    /// refused or kept waiting, never at the cost of the daemon or of the clients already in.
    @Suite(.tags(.slow)) struct ClientLimitEndToEndTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        static func temporaryPath(_ name: String) -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-\(name)-\(UUID().uuidString.prefix(8))"
            ).path
        }

        /// Reads from `socket` until the peer closes (true) or `timeout` seconds pass (false).
        static func closedByPeer(_ socket: BlockingSocket, timeout: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if socket.read() == nil { return true }
            }
            return false
        }

        @Test func clientsBeyondTheLimitAreRefusedAndTheOthersServed() throws {
            let socket = Self.temporaryPath("limit") + ".sock"
            let port = BlockingSocket.freePorts(1)[0]
            let daemon = try Daemon([
                "--replay", sample, "--loop", "--throttle", "--receiver", "52,4.4",
                "--frame-interval", "0.25", "--max-clients", "3", "--beast-out", "\(port)",
                "--socket", socket
            ])
            defer { _ = daemon.stop() }

            var held: [BlockingSocket] = []
            for _ in 0..<3 {
                let client = try BlockingSocket.connect(path: socket)
                #expect(client.nextObject()?["type"] as? String == "hello")
                held.append(client)
            }
            let refusals = 40
            for _ in 0..<refusals {
                let client = try BlockingSocket.connect(path: socket)
                let line = client.nextObject()
                #expect(line?["type"] as? String == "error")
                #expect((line?["message"] as? String)?.contains("maximum of 3 clients") == true)
                #expect(Self.closedByPeer(client))
            }
            // The three keep getting frames.
            for client in held {
                var frames = 0
                let until = Date().addingTimeInterval(20)
                while frames < 2, Date() < until, let object = client.nextObject() {
                    if object["type"] as? String == "frame" { frames += 1 }
                }
                #expect(frames == 2)
            }

            // The Beast output: three in, the rest closed at once.
            var tcp: [BlockingSocket] = []
            for _ in 0..<3 { tcp.append(try BlockingSocket.connect(port: port)) }
            let deadline = Date().addingTimeInterval(20)
            while daemon.stderr.components(separatedBy: "Beast output: client connected").count < 4, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            for _ in 0..<refusals {
                let client = try BlockingSocket.connect(port: port)
                #expect(Self.closedByPeer(client))
            }
            for client in tcp { #expect(!Self.closedByPeer(client, timeout: 0.5)) }
            #expect(daemon.process.isRunning)

            // Counted, but not one log line per refused client.
            let lines = daemon.stderr.split(separator: "\n")
            let feedLines = lines.filter { $0.contains("feed:") && $0.contains("refused") }
            let beastLines = lines.filter { $0.contains("Beast output:") && $0.contains("refused") }
            #expect((1...3).contains(feedLines.count), "\(feedLines)")
            #expect((1...3).contains(beastLines.count), "\(beastLines)")
            #expect(feedLines.first?.contains("a client refused: 3 connected, the most --max-clients allows") == true)
            #expect(daemon.stop(signal: SIGTERM).status == 0)
        }

        @Test func runningOutOfDescriptorsPausesAcceptingOnly() throws {
            let socket = Self.temporaryPath("nofile") + ".sock"
            let json = Self.temporaryPath("nofile-json")
            try FileManager.default.createDirectory(atPath: json, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: json) }
            // 64 descriptors, and a client limit far above them: accept runs out first. No
            // dongle and no receiver position: the sky stays empty, aircraft.json is still
            // rewritten every second.
            let daemon = try Daemon(
                [
                    "--max-clients", "1000", "--json-dir", json, "--retry-interval", "0.5",
                    "--frame-interval", "0.25", "--socket", socket
                ],
                environment: try FakeRTLSDR.environment(["AVIATOR_FAKE_RTLSDR_DEVICES": "0"]),
                fileLimit: 64)
            defer { _ = daemon.stop() }
            #expect(daemon.waitFor("radar feed on", timeout: 30))
            #expect(daemon.stderr.contains("the limit of 64 open files"))

            var idle: [BlockingSocket] = []
            for _ in 0..<150 { idle.append(try BlockingSocket.connect(path: socket)) }
            #expect(daemon.waitFor("feed: cannot accept clients: Too many open files", timeout: 30))
            Thread.sleep(forTimeInterval: 2)
            #expect(daemon.process.isRunning)
            // It stops short of the limit: the Swift runtime's thread pool aborts the process
            // when it cannot open a file, so clients never get the last 16 descriptors.
            let open =
                (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/fd")
                    .count) ?? 0
            #expect(open > 0 && open <= 64 - 15, "\(open) descriptors open")

            // Once they leave, the daemon serves again and rewrites aircraft.json.
            idle.removeAll()
            let file = json + "/aircraft.json"
            let left = Date()
            var rewritten = false
            let deadline = Date().addingTimeInterval(30)
            while !rewritten, Date() < deadline {
                let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate]) as? Date
                rewritten = (modified ?? .distantPast) > left.addingTimeInterval(0.5)
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(rewritten)
            let client = try BlockingSocket.connect(path: socket)
            var hello: [String: Any]?
            let helloDeadline = Date().addingTimeInterval(30)
            while hello == nil, Date() < helloDeadline { hello = client.nextObject() }
            #expect(hello?["type"] as? String == "hello")
            #expect(daemon.process.isRunning)
            let stopped = daemon.stop(signal: SIGTERM)
            #expect(stopped.status == 0)
            #expect(!FileManager.default.fileExists(atPath: socket))
        }
    }
}
