import Foundation
import TestSupport
import Testing

/// The running binary refuses what the web server must not serve: a head that does not parse
/// and a host it does not know, while `--http-host` adds a name it answers to.
extension WebEndToEndTests {
    /// Sends `text` on a fresh connection to `port`; what came back and whether the daemon
    /// closed the connection within `timeout`.
    static func rawExchange(_ port: Int, _ text: String, timeout: Double = 4) async throws -> (String, Bool) {
        let connection = try RawConnection(port: port)
        connection.send(text)
        let result = await connection.readAll(timeout: timeout)
        return (String(decoding: result.bytes, as: UTF8.self), result.closed)
    }

    @Test func badHeadsAndUnknownHostsAreRefusedAndHttpHostIsServed() async throws {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
        let socket = "/tmp/aviator-web-hosts-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try Daemon([
            "--replay", sample, "--throttle", "--loop", "--socket", socket, "--receiver", "52.3,4.75,5",
            "--http", "127.0.0.1:0", "--http-host", "radar.example"
        ])
        defer { _ = daemon.stop() }
        let port = try Self.webPort(of: daemon)
        let (bad, badClosed) = try await Self.rawExchange(port, "get / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(bad.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(bad.prefix(40))")
        #expect(badClosed)
        let (foreign, foreignClosed) = try await Self.rawExchange(
            port, "GET /data/receiver.json HTTP/1.1\r\nHost: attacker.example:\(port)\r\n\r\n")
        #expect(foreign.hasPrefix("HTTP/1.1 421 "), "\(foreign.prefix(40))")
        #expect(!foreign.contains("\"lat\""), "no position")
        #expect(foreignClosed)
        let (named, _) = try await Self.rawExchange(
            port, "GET /data/receiver.json HTTP/1.1\r\nHost: radar.example:\(port)\r\nConnection: close\r\n\r\n")
        #expect(named.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(named.prefix(40))")
        #expect(named.contains("\"lat\""))
    }
}
