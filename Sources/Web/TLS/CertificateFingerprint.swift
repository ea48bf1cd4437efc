import Crypto
import SwiftASN1
import X509

/// The SHA-256 fingerprint of a certificate, written the way browsers and
/// `openssl x509 -fingerprint -sha256` show it: 32 bytes in upper-case hex, separated by
/// colons (`AB:CD:...`).
///
/// The daemon logs it when it starts with a self-signed certificate, so that a user about to
/// trust the certificate on a phone can check that it is the one the daemon made and not one
/// put in its place on the way.
package enum CertificateFingerprint {
    /// The fingerprint of a certificate's DER encoding.
    package static func sha256(der: some Sequence<UInt8>) -> String {
        SHA256.hash(data: Array(der)).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The fingerprint of `certificate`.
    package static func sha256(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return sha256(der: serializer.serializedBytes)
    }
}
