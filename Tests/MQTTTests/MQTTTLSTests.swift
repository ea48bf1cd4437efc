import Foundation
import MQTT
import TestSupport
import Testing

/// mqtts:// against a mosquitto listener with a certificate of a test CA: trusted through
/// --mqtt-ca-file, refused through the system's CAs.
@Suite(.serialized, .tags(.slow)) struct MQTTTLSTests {
    /// A CA and a certificate for 127.0.0.1 signed by it, made with openssl in `folder`.
    static func makeCertificates(in folder: URL) throws -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            SharedData.missing("openssl missing: `make deps` installs it")
            return false
        }
        try "subjectAltName=IP:127.0.0.1\n".write(
            to: folder.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        let steps = [
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                "ca.key",
                "-out", "ca.pem", "-days", "2", "-subj", "/CN=aviator test CA"
            ],
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "server.key",
                "-out", "server.csr", "-subj", "/CN=127.0.0.1"
            ],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.pem",
                "-days", "2", "-extfile", "san.ext"
            ]
        ]
        for arguments in steps {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "openssl \(arguments.joined(separator: " "))")
        }
        // Started as root, mosquitto reads its files as the user it drops to: a test key
        // may be readable by all.
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: folder.appendingPathComponent("server.key").path)
        return true
    }

    @Test(.requires(.program("/usr/bin/openssl"), .program(MosquittoBroker.executable)))
    func aBrokerCertifiedByTheGivenCAIsTrustedAndOtherwiseRefused() async throws {
        guard MosquittoBroker.isAvailable() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard try Self.makeCertificates(in: folder) else { return }
        let broker = try MosquittoBroker(extraConfiguration: [
            "cafile \(folder.appendingPathComponent("ca.pem").path)",
            "certfile \(folder.appendingPathComponent("server.pem").path)",
            "keyfile \(folder.appendingPathComponent("server.key").path)"
        ])
        func client(
            _ id: String, caFile: String?, onMessage: @escaping @Sendable (MQTTReceivedMessage) -> Void = { _ in }
        )
            throws -> MQTTClient
        {
            var settings = MQTTConfiguration(
                broker: MQTTBroker(host: "127.0.0.1", port: broker.port, usesTLS: true),
                clientID: "\(id)-\(UInt32.random(in: 0...UInt32.max))")
            settings.caFile = caFile
            settings.keepaliveSeconds = 5
            settings.maximumReconnectDelaySeconds = 1
            return try MQTTClient(configuration: settings, onMessage: onMessage)
        }
        let received = MQTTClientTests.Inbox()
        let trusted = try client("tls", caFile: folder.appendingPathComponent("ca.pem").path, onMessage: received.add)
        trusted.subscribe("tls/#")
        try trusted.start()
        defer { trusted.stop() }
        let untrusted = try client("untrusted", caFile: nil)
        try untrusted.start()
        defer { untrusted.stop() }
        let deadline = Date().addingTimeInterval(60)
        while !trusted.isConnected, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(trusted.isConnected, "\(trusted.statistics)\n\(broker.log)")
        trusted.publish(MQTTMessage(topic: "tls/check", text: "secret", retain: true))
        while received.latest("tls/check") == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(received.latest("tls/check") == Array("secret".utf8))
        try await Task.sleep(for: .seconds(1))
        #expect(!untrusted.isConnected)
        #expect(untrusted.statistics.connections == 0)
        #expect(untrusted.statistics.lastProblem != nil, "the refusal is reported")
    }
}
