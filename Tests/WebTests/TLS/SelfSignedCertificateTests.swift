import Crypto
import Foundation
import Testing
import X509

@testable import Web

@Suite struct SelfSignedCertificateTests {
    static let subject = CertificateSubject.host(
        "radar-pi", addresses: [IPAddress("192.168.1.20")!, IPAddress("2001:db8::20")!])
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func subjectListsTheHostsNamesAndAddresses() {
        let subject = Self.subject
        #expect(subject.dnsNames == ["radar-pi", "radar-pi.local", "localhost"])
        #expect(subject.ipAddresses.map(\.description) == ["127.0.0.1", "::1", "192.168.1.20", "2001:db8::20"])
        #expect(subject.commonName == "aviator-adsb on radar-pi")
        let dotted = CertificateSubject.host("Radar.Example.org", addresses: [])
        #expect(dotted.dnsNames == ["radar.example.org", "radar", "radar.local", "localhost"])
    }

    @Test func invalidNamesAreDroppedAndTheCommonNameStaysShort() {
        let subject = CertificateSubject(
            hostName: String(repeating: "x", count: 100),
            dnsNames: ["ok-name", "bad_name", "-bad", "", "a..b", "OK-NAME"], ipAddresses: [])
        #expect(subject.dnsNames == ["ok-name"])
        #expect(subject.commonName.count == 64)
    }

    @Test func certificateCarriesTheSubjectAndTheExtensionsPhonesNeed() throws {
        let made = try SelfSignedCertificate(subject: Self.subject, now: Self.now)
        let certificate = try Certificate(pemEncoded: made.certificatePEM)
        #expect(certificate == made.certificate)
        #expect(certificate.version == .v3)
        #expect(certificate.subject == certificate.issuer)
        #expect(certificate.subject.description.contains("CN=aviator-adsb on radar-pi"))

        let names = try #require(try certificate.extensions.subjectAlternativeNames)
        let dnsNames = names.compactMap { name -> String? in if case .dnsName(let dns) = name { dns } else { nil } }
        let addresses = names.compactMap { name -> String? in
            if case .ipAddress(let octets) = name { IPAddress(bytes: Array(octets.bytes))?.description } else { nil }
        }
        #expect(dnsNames == ["radar-pi", "radar-pi.local", "localhost"])
        #expect(addresses == ["127.0.0.1", "::1", "192.168.1.20", "2001:db8::20"])

        let constraints = try #require(try certificate.extensions.basicConstraints)
        guard case .isCertificateAuthority = constraints else {
            Issue.record("not a CA: \(constraints)")
            return
        }
        #expect(certificate.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        let usage = try #require(try certificate.extensions.keyUsage)
        #expect(usage.digitalSignature && usage.keyCertSign)
        #expect(!usage.keyEncipherment && !usage.cRLSign)
        let extended = try #require(try certificate.extensions.extendedKeyUsage)
        #expect(Array(extended) == [.serverAuth])
        #expect(try certificate.extensions.subjectKeyIdentifier != nil)

        #expect(P256.Signing.PublicKey(certificate.publicKey) != nil)
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(made.privateKey.publicKey == certificate.publicKey)
    }

    @Test func theCertificateCanVouchOnlyForThisHostsNamesAndAddresses() throws {
        let made = try SelfSignedCertificate(subject: Self.subject, now: Self.now)
        let certificate = try Certificate(pemEncoded: made.certificatePEM)
        let constraints = try #require(try certificate.extensions.nameConstraints)
        #expect(certificate.extensions[oid: .X509ExtensionID.nameConstraints]?.critical == true)
        #expect(Array(constraints.permittedDNSDomains) == ["radar-pi", "radar-pi.local", "localhost"])
        // Each address alone: its bytes, then a mask of as many bytes, all ones.
        let ranges = Array(constraints.permittedIPRanges).map { Array($0.bytes) }
        #expect(
            ranges == [
                [127, 0, 0, 1, 255, 255, 255, 255],
                [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] + Array(repeating: 255, count: 16),
                [192, 168, 1, 20, 255, 255, 255, 255],
                [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20] + Array(repeating: 255, count: 16)
            ])
        #expect(constraints.excludedSubtrees.isEmpty)
    }

    @Test func validityIsAtMost825DaysStartingAnHourAgo() throws {
        let certificate = try SelfSignedCertificate(subject: Self.subject, now: Self.now).certificate
        #expect(certificate.notValidBefore == Self.now.addingTimeInterval(-3_600))
        let days = certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) / 86_400
        #expect(days == 825)
        #expect(certificate.notValidAfter.timeIntervalSince(Self.now) / 86_400 > 824.9)
    }

    @Test func serialNumbersAndKeysDiffer() throws {
        let first = try SelfSignedCertificate(subject: Self.subject, now: Self.now)
        let second = try SelfSignedCertificate(subject: Self.subject, now: Self.now)
        #expect(first.certificate.serialNumber != second.certificate.serialNumber)
        #expect(first.privateKey.publicKey != second.privateKey.publicKey)
        #expect(first.keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func ipAddressesRoundTripThroughText() {
        for text in ["10.0.0.1", "255.255.255.255", "::1", "2001:db8::1", "fe80::1"] {
            #expect(IPAddress(text)?.description == text)
        }
        for text in ["", "localhost", "10.0.0", "fe80::1%eth0", "10.0.0.1/24", "::g"] {
            #expect(IPAddress(text) == nil)
        }
        #expect(
            IPAddress("127.5.0.1")!.isLoopback && IPAddress("::1")!.isLoopback && !IPAddress("10.0.0.1")!.isLoopback)
        #expect(IPAddress("fe80::1")!.isLinkLocalV6 && !IPAddress("2001:db8::1")!.isLinkLocalV6)
    }

    @Test func hostAddressesAreNeitherLoopbackNorLinkLocal() {
        let addresses = HostAddresses.current()
        #expect(addresses == addresses.sorted())
        #expect(addresses.allSatisfy { !$0.isLoopback && !$0.isLinkLocalV6 })
        let current = CertificateSubject.current()
        #expect(current.ipAddresses.starts(with: [.loopbackV4, .loopbackV6]))
        #expect(current.dnsNames.contains("localhost"))
    }
}
