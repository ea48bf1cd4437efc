import Crypto
import FoundationEssentials
import SwiftASN1
import X509

/// A new ECDSA P-256 key and a self-signed X.509 v3 certificate for it, made for the hosts
/// and addresses of a `CertificateSubject`, in the form phones accept.
///
/// Phones give a web page the compass and the location only over HTTPS, and a certificate a
/// user installs by hand must meet their rules:
/// - the names are in the subject alternative names (DNS names and IP addresses); the
///   common name is only a label;
/// - the validity is at most 825 days, the longest Apple platforms accept for a TLS server
///   certificate, counted from `notValidBefore`; it starts an hour in the past so that a
///   phone whose clock is a little behind accepts it at once;
/// - it is a CA (basicConstraints CA:true, keyUsage keyCertSign): iOS offers full trust for
///   an installed profile's certificate under "Certificate Trust Settings" only for a CA.
///   It also signs the TLS handshake (keyUsage digitalSignature, extendedKeyUsage
///   serverAuth);
/// - the serial number is random, so a new certificate never repeats an old one's.
package struct SelfSignedCertificate: Sendable {
    /// The longest validity, 825 days.
    package static let validity: TimeInterval = 825 * 86_400
    /// How far before the moment of making the validity starts.
    package static let backdating: TimeInterval = 3_600

    /// The certificate.
    package let certificate: Certificate
    /// Its private key.
    package let privateKey: Certificate.PrivateKey
    /// The certificate in PEM.
    package let certificatePEM: String
    /// The private key in PEM (PKCS #8).
    package let keyPEM: String

    /// Makes a new key and certificate for `subject`, valid from an hour before `now`.
    package init(subject: CertificateSubject, now: Date = Date()) throws(TLSSetupError) {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let notBefore = now.addingTimeInterval(-Self.backdating)
        do {
            let name = try DistinguishedName {
                CommonName(subject.commonName)
                OrganizationName("aviator-adsb")
            }
            let alternativeNames = SubjectAlternativeNames(
                subject.dnsNames.map { GeneralName.dnsName($0) }
                    + subject.ipAddresses.map { GeneralName.ipAddress(ASN1OctetString(contentBytes: $0.bytes[...])) })
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                // A phone trusts this certificate as a root: limited to this host's own names
                // and addresses, a copy of its key could not vouch for any other site.
                Critical(Self.nameConstraints(for: subject))
                try ExtendedKeyUsage([.serverAuth])
                SubjectKeyIdentifier(hash: publicKey)
                alternativeNames
            }
            certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                notValidBefore: notBefore, notValidAfter: notBefore.addingTimeInterval(Self.validity),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(key))
            certificatePEM = try certificate.serializeAsPEM().pemString
        } catch {
            throw .generation(String(describing: error))
        }
        privateKey = Certificate.PrivateKey(key)
        keyPEM = key.pemRepresentation
    }

    /// The names a certificate for `subject` may vouch for, as the name constraints of a
    /// certificate authority: its DNS names (and names below them) and each of its addresses
    /// alone (the address followed by an all-ones mask of its length).
    package static func nameConstraints(for subject: CertificateSubject) -> NameConstraints {
        NameConstraints(
            permittedDNSDomains: subject.dnsNames,
            permittedIPRanges: subject.ipAddresses.map { address in
                ASN1OctetString(
                    contentBytes: (address.bytes + [UInt8](repeating: 0xFF, count: address.bytes.count))[...])
            })
    }
}
