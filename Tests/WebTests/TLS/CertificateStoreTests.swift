import Crypto
import Foundation
import SwiftASN1
import TestSupport
import Testing
import X509

@testable import Web

@Suite struct CertificateStoreTests {
    static let subject = CertificateSubject.host("radar-pi", addresses: [IPAddress("192.168.1.20")!])
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func firstCallMakesAPairAndTheSecondReusesIt() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.file("state"))
        let first = try store.pair(for: Self.subject, now: Self.now)
        #expect(first.renewalReason == "no certificate yet")
        let second = try store.pair(for: Self.subject, now: Self.now.addingTimeInterval(86_400))
        #expect(second.renewalReason == nil)
        #expect(second.fingerprint == first.fingerprint)
        #expect(second.certificatePEM == first.certificatePEM && second.keyPEM == first.keyPEM)
        #expect(try String(contentsOfFile: store.certificatePath, encoding: .utf8) == first.certificatePEM)
        #expect(try String(contentsOfFile: store.keyPath, encoding: .utf8) == first.keyPEM)
    }

    @Test func filesAndDirectoryAreClosedToOthers() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.file("state/nested"))
        _ = try store.pair(for: Self.subject, now: Self.now)
        #expect(try folder.mode("state/nested/tls-key.pem") == 0o600)
        #expect(try folder.mode("state/nested/tls-cert.pem") == 0o644)
        #expect(try folder.mode("state/nested") == 0o700)
        #expect(try folder.mode("state") == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(leftovers.sorted() == ["tls-cert.pem", "tls-key.pem"])
    }

    @Test func aNewNameOrAddressMakesANewCertificate() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        let first = try store.pair(for: Self.subject, now: Self.now)

        let renamed = CertificateSubject.host("radar-pi2", addresses: [IPAddress("192.168.1.20")!])
        let second = try store.pair(for: renamed, now: Self.now)
        #expect(second.renewalReason == "the certificate does not cover the name radar-pi2")
        #expect(second.fingerprint != first.fingerprint)

        let moved = CertificateSubject.host("radar-pi2", addresses: [IPAddress("192.168.1.21")!])
        let third = try store.pair(for: moved, now: Self.now)
        #expect(third.renewalReason == "the certificate does not cover the address 192.168.1.21")

        // Fewer addresses, or another IPv6 address, keep the certificate.
        let fewer = CertificateSubject.host("radar-pi2", addresses: [IPAddress("2001:db8::99")!])
        #expect(try store.pair(for: fewer, now: Self.now).renewalReason == nil)
    }

    @Test func aCertificateNearItsExpiryIsReplaced() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        let first = try store.pair(for: Self.subject, now: Self.now)
        let expiry = Self.now.addingTimeInterval(SelfSignedCertificate.validity - 3_600)

        let early = try store.pair(for: Self.subject, now: expiry.addingTimeInterval(-31 * 86_400))
        #expect(early.renewalReason == nil)
        let late = try store.pair(for: Self.subject, now: expiry.addingTimeInterval(-29 * 86_400))
        #expect(late.renewalReason?.hasPrefix("the certificate expires on") == true)
        #expect(late.fingerprint != first.fingerprint)
        let renewed = try Certificate(pemEncoded: late.certificatePEM)
        #expect(renewed.notValidAfter > expiry.addingTimeInterval(700 * 86_400))
    }

    @Test func aCertificateFromTheFutureIsReplaced() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        _ = try store.pair(for: Self.subject, now: Self.now)
        let earlier = try store.pair(for: Self.subject, now: Self.now.addingTimeInterval(-7_200))
        #expect(earlier.renewalReason?.hasPrefix("the certificate is not valid before") == true)
    }

    @Test func aCertificateThatCouldVouchForAnySiteIsMadeAgainOnce() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        _ = try store.pair(for: Self.subject, now: Self.now)
        // A certificate authority for the same names, made as it was before its names were
        // constrained.
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("aviator-adsb on radar-pi") }
        let unconstrained = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: Self.now.addingTimeInterval(-3_600),
            notValidAfter: Self.now.addingTimeInterval(800 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                SubjectAlternativeNames(
                    Self.subject.dnsNames.map { GeneralName.dnsName($0) }
                        + Self.subject.ipAddresses.map {
                            GeneralName.ipAddress(ASN1OctetString(contentBytes: $0.bytes[...]))
                        })
            }, issuerPrivateKey: .init(key))
        try folder.write(
            try unconstrained.serializeAsPEM().pemString, to: CertificateStore.certificateFileName, mode: 0o644)
        try folder.write(key.pemRepresentation, to: CertificateStore.keyFileName)
        let renewed = try store.pair(for: Self.subject, now: Self.now)
        #expect(renewed.renewalReason == "the certificate could vouch for any site (it had no name constraints)")
        #expect(try store.pair(for: Self.subject, now: Self.now).renewalReason == nil)
    }

    @Test func aMismatchedOrDamagedPairIsReplaced() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        _ = try store.pair(for: Self.subject, now: Self.now)
        let other = try SelfSignedCertificate(subject: Self.subject, now: Self.now)
        try folder.write(other.keyPEM, to: CertificateStore.keyFileName)
        #expect(
            try store.pair(for: Self.subject, now: Self.now).renewalReason
                == "the stored key does not match the certificate")

        try folder.write("garbage", to: CertificateStore.certificateFileName, mode: 0o644)
        #expect(
            try store.pair(for: Self.subject, now: Self.now).renewalReason == "the stored certificate did not parse")

        try FileManager.default.removeItem(atPath: store.certificatePath)
        #expect(try store.pair(for: Self.subject, now: Self.now).renewalReason == "the certificate file was missing")
        #expect(try store.pair(for: Self.subject, now: Self.now).renewalReason == nil)
    }

    @Test func aKeyOthersCanReadIsRefused() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        _ = try store.pair(for: Self.subject, now: Self.now)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.keyPath)
        let error = #expect(throws: TLSSetupError.self) { try store.pair(for: Self.subject, now: Self.now) }
        #expect(error == .openPermissions(store.keyPath, mode: 0o100644, required: "600"))
        #expect(
            error?.description
                == "refusing \(store.keyPath): mode 644 lets others in; it must be 600 (chmod 600 \(store.keyPath))")
    }

    @Test func linksAndOpenDirectoriesAreRefused() throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let elsewhere = try folder.write(try SelfSignedCertificate(subject: Self.subject).keyPEM, to: "elsewhere.pem")
        try FileManager.default.createDirectory(atPath: folder.file("state"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("state/tls-key.pem"), withDestinationPath: elsewhere)
        let store = CertificateStore(directory: folder.file("state"))
        #expect(throws: TLSSetupError.symbolicLink(store.keyPath)) { try store.pair(for: Self.subject, now: Self.now) }

        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let open = CertificateStore(directory: folder.path)
        #expect(throws: TLSSetupError.openPermissions(folder.path, mode: 0o40777, required: "700")) {
            try open.pair(for: Self.subject, now: Self.now)
        }
        try folder.write("", to: "plain")
        #expect(throws: TLSSetupError.notADirectory(folder.file("plain"))) {
            try CertificateStore(directory: folder.file("plain")).pair(for: Self.subject, now: Self.now)
        }
    }

    @Test(.requires(Requirement("root", remedy: "changing a file's owner needs it") { geteuid() == 0 }))
    func filesOfAnotherUserAreRefused() throws {
        guard geteuid() == 0 else {
            Issue.record("changing a file's owner needs root")
            return
        }
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let store = CertificateStore(directory: folder.path)
        _ = try store.pair(for: Self.subject, now: Self.now)
        #expect(chown(store.keyPath, 65_534, 65_534) == 0)
        #expect(throws: TLSSetupError.foreignOwner(store.keyPath, owner: 65_534)) {
            try store.pair(for: Self.subject, now: Self.now)
        }
        #expect(chown(folder.path, 65_534, 65_534) == 0)
        #expect(throws: TLSSetupError.foreignOwner(folder.path, owner: 65_534)) {
            try store.pair(for: Self.subject, now: Self.now)
        }
    }
}
