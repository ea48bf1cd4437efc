import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import TestSupport
import Testing

@testable import Web

@Suite struct TLSCredentialsTests {
    static let subject = CertificateSubject.host("radar-pi", addresses: [IPAddress("192.168.1.20")!])

    @Test func userFilesLoadAndGiveTheLeafsFingerprint() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let made = try SelfSignedCertificate(subject: Self.subject)
        let certificate = try folder.write(made.certificatePEM, to: "cert.pem", mode: 0o644)
        let key = try folder.write(made.keyPEM, to: "key.pem")
        let credentials = try TLSCredentials.load(certificateFile: certificate, keyFile: key)
        #expect(credentials.fingerprint == (try CertificateFingerprint.sha256(made.certificate)))
        #expect(credentials.certificateChain.count == 1)
        #expect(credentials.serverConfiguration().minimumTLSVersion == .tlsv12)
    }

    @Test func aKeyOfAnotherCertificateIsRefused() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let certificate = try folder.write(
            try SelfSignedCertificate(subject: Self.subject).certificatePEM, to: "cert.pem")
        let key = try folder.write(try SelfSignedCertificate(subject: Self.subject).keyPEM, to: "key.pem")
        let error = #expect(throws: TLSSetupError.self) {
            try TLSCredentials.load(certificateFile: certificate, keyFile: key)
        }
        #expect(error == .keyMismatch(certificate: certificate, key: key))
        #expect(error?.description == "TLS key \(key) does not match the certificate \(certificate)")
    }

    @Test func missingAndNonPEMFilesGiveOneLineErrors() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let made = try SelfSignedCertificate(subject: Self.subject)
        let certificate = try folder.write(made.certificatePEM, to: "cert.pem")
        let key = try folder.write(made.keyPEM, to: "key.pem")
        let garbage = try folder.write("hello\n", to: "garbage.pem")
        let broken = try folder.write(
            "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", to: "broken.pem")
        let brokenKey = try folder.write(
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", to: "broken-key.pem")
        let cases: [(String, String, TLSSetupError)] = [
            (folder.file("none.pem"), key, .missing(folder.file("none.pem"), what: "TLS certificate")),
            (certificate, folder.file("none.pem"), .missing(folder.file("none.pem"), what: "TLS key")),
            (garbage, key, .notPEM(garbage, what: "TLS certificate")),
            (certificate, garbage, .notPEM(garbage, what: "TLS key")),
            (
                broken, key,
                .unusable(broken, what: "TLS certificate", reason: "it does not hold a readable certificate")
            ),
            (
                certificate, brokenKey,
                .unusable(brokenKey, what: "TLS key", reason: "it does not hold a readable RSA or EC private key")
            ),
            (folder.path, key, .unreadable(folder.path, what: "TLS certificate", reason: "not a regular file"))
        ]
        for (certificateFile, keyFile, expected) in cases {
            let error = #expect(throws: TLSSetupError.self) {
                try TLSCredentials.load(certificateFile: certificateFile, keyFile: keyFile)
            }
            #expect(error == expected)
            #expect(error.map { !$0.description.contains("\n") } == true)
        }
    }

    @Test func aHugeFileIsRefusedWithoutReadingItAll() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let huge = try folder.write(String(repeating: "A", count: PEMFile.maximumBytes + 1), to: "huge.pem")
        let error = #expect(throws: TLSSetupError.self) {
            try TLSCredentials.load(certificateFile: huge, keyFile: huge)
        }
        guard case .unreadable(huge, what: "TLS certificate", _) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    @Test func aClientTrustingTheCertificateCompletesAHandshakeForLocalhost() async throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let pair = try CertificateStore(directory: folder.path).pair(for: Self.subject)
        let credentials = try TLSCredentials(pair)
        let server = try await TLSEchoServer(configuration: credentials.serverConfiguration())

        let trusted = try NIOSSLCertificate.fromPEMBytes(Array(pair.certificatePEM.utf8))
        let reply = try await server.exchange("ping", trusting: trusted, hostname: "localhost")
        #expect(reply == "ping")

        let stranger = try NIOSSLCertificate.fromPEMBytes(
            Array(try SelfSignedCertificate(subject: Self.subject).certificatePEM.utf8))
        await #expect(throws: NIOSSLError.self) {
            try await server.exchange("ping", trusting: stranger, hostname: "localhost")
        }
        let mismatch = await #expect(throws: NIOSSLExtraError.self) {
            try await server.exchange("ping", trusting: trusted, hostname: "elsewhere.example")
        }
        #expect(mismatch == .failedToValidateHostname)
        try await server.stop()
    }

    @Test(.requires(.program("openssl"))) func fingerprintMatchesOpenSSL() throws {
        guard let openssl = Self.executable("openssl") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("openssl is missing (make deps installs it)")
            } else {
                print("skipped: openssl is not installed")
            }
            return
        }
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let made = try SelfSignedCertificate(subject: Self.subject)
        let path = try folder.write(made.certificatePEM, to: "cert.pem")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["x509", "-noout", "-fingerprint", "-sha256", "-in", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = try #require(text.split(separator: "=", maxSplits: 1).last).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let ours = try CertificateFingerprint.sha256(made.certificate)
        #expect(ours == printed)
        #expect(ours.count == 32 * 3 - 1)
    }

    /// The path of `name` on `PATH`, or nil.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
