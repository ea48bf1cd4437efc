import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOSSL
import TestSupport
import Testing

/// HTTPS with the daemon's own certificate, as a phone meets it: the log names the
/// fingerprint, the client checks the certificate it is given against it and then trusts
/// only that certificate, for the page and for the feed.
@Suite(.serialized) struct TLSEndToEndTests {
    /// The fingerprint the daemon logged.
    static func loggedFingerprint(_ daemon: Daemon) throws -> String {
        guard daemon.waitFor("SHA-256 fingerprint", timeout: 20) else {
            throw EndToEndFailure("no fingerprint:\n\(daemon.stderr)")
        }
        let line = daemon.stderr.split(separator: "\n").first { $0.contains("SHA-256 fingerprint") } ?? ""
        guard let range = line.range(of: #"([0-9A-F]{2}:){31}[0-9A-F]{2}"#, options: .regularExpression) else {
            throw EndToEndFailure("no fingerprint in: \(line)")
        }
        return String(line[range])
    }

    /// `openssl`'s SHA-256 fingerprint of a PEM certificate file (`make deps` installs it).
    static func opensslFingerprint(_ path: String) throws -> String {
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        run.arguments = ["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", path]
        let output = Pipe()
        run.standardOutput = output
        try run.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        return String(text.split(separator: "=").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func selfSignedHTTPSServesThePageAndTheFeedToAClientThatPinsTheLoggedCertificate() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-tls-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: state) }
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
        let arguments = [
            "--replay", sample, "--throttle", "--loop", "--receiver", "52.3,4.75",
            "--http", "127.0.0.1:0", "--tls-self-signed", "--state-dir", state.path
        ]
        let daemon = try Daemon(arguments)
        let fingerprint = try Self.loggedFingerprint(daemon)
        #expect(daemon.stderr.contains("made now"))
        let port = try WebEndToEndTests.webPort(of: daemon, scheme: "https")

        // The certificate on disk is the one the log names; its key is the owner's alone.
        let certificate = state.appendingPathComponent("tls-cert.pem").path
        #expect(try Self.opensslFingerprint(certificate) == fingerprint)
        let keyMode =
            try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("tls-key.pem").path)[
                .posixPermissions] as? Int
        #expect(keyMode == 0o600)

        // Trust exactly that certificate, and check the host name (localhost is in it).
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let response = try await client.execute(
            HTTPClientRequest(url: "https://localhost:\(port)/"), timeout: .seconds(10))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Security-Policy"].first?.contains("default-src 'self'") == true)
        let page = String(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect(page.contains("<html"))
        // Every file the page names comes over the same connection trust.
        let names = page.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.1) }.filter { !$0.contains(":") }
        #expect(!names.isEmpty)
        for name in names {
            let asset = try await client.execute(
                HTTPClientRequest(url: "https://localhost:\(port)/" + name), timeout: .seconds(10))
            #expect(asset.status == .ok, "\(name)")
            _ = try await asset.body.collect(upTo: 1 << 20)
        }
        try await client.shutdown()

        // A client that trusts only the system's authorities refuses it.
        let strict = HTTPClient(eventLoopGroupProvider: .singleton)
        await #expect(throws: (any Error).self) {
            _ = try await strict.execute(HTTPClientRequest(url: "https://localhost:\(port)/"), timeout: .seconds(10))
        }
        try await strict.shutdown()

        // The feed over wss:// with the same trust. The frames after the greeting carry every
        // aircraft tracked, larger than a client's default limit on a busy sky.
        let greeting = Messages()
        try await WebSocketClient.connect(
            url: "wss://localhost:\(port)/feed", configuration: .init(maxFrameSize: 8 << 20),
            tlsConfiguration: tls, logger: Logger(label: "tls-e2e")
        ) { inbound, _, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { greeting.set(text) }
                break
            }
        }
        #expect(greeting.value?.contains("\"type\":\"hello\"") == true)

        // SIGTERM with a client still on the feed is a clean stop: no error in the log.
        let held = Task {
            try? await WebSocketClient.connect(
                url: "wss://localhost:\(port)/feed",
                configuration: .init(maxFrameSize: 8 << 20), tlsConfiguration: tls,
                logger: Logger(label: "tls-e2e")
            ) { inbound, _, _ in
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
        }
        try await Task.sleep(for: .seconds(1))
        // With a client on the feed the stop waits for it to answer the close (`Daemon.stop`).
        let stopped = daemon.stop(signal: SIGTERM)
        print("tls: stopped \(String(format: "%.2f", stopped.seconds)) s after SIGTERM with a client on the feed")
        #expect(stopped.status == 0)
        _ = await held.value
        #expect(!daemon.stderr.contains(" error "), "\(daemon.stderr.suffix(1500))")

        // The next start keeps the certificate: the phone's trust stays valid.
        let again = try Daemon(arguments)
        defer { _ = again.stop() }
        #expect(try Self.loggedFingerprint(again) == fingerprint)
        #expect(again.stderr.contains("kept from an earlier start"))
    }

    @Test func badCertificateFilesAreOneClearLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-tls-bad-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.pem").path
        try "not a certificate\n".write(toFile: junk, atomically: true, encoding: .utf8)
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path
        let result = try BinaryRunner.run([
            "--replay", sample, "--http", "127.0.0.1:0", "--tls-cert", junk, "--tls-key", junk,
            "--socket", folder.appendingPathComponent("s.sock").path
        ])
        #expect(result.status != 0)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains("Error") || $0.contains("error") }
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(junk))
        let missing = try BinaryRunner.run(["--replay", sample, "--tls-self-signed"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("apply to --http"))
    }
}
