import Crypto
import FeedProtocol
import FoundationEssentials
import SwiftASN1
import X509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The self-signed certificate and its key, kept in the state directory so that a phone that
/// trusted the certificate once keeps trusting the daemon across restarts.
///
/// At each start the stored pair is used again when it parses, the key belongs to the
/// certificate, the certificate is valid now and for at least `renewalMargin` more, and its
/// subject alternative names still cover the host's current names, its IPv4 addresses and
/// the loopback addresses. Otherwise a new pair is made and saved, and the reason is given
/// for the log: a user then has to trust the new certificate on the phone.
///
/// IPv6 addresses other than loopback are written into a new certificate but a change among
/// them does not replace it: hosts rotate temporary IPv6 addresses every day or so, and a
/// certificate remade each time would have to be trusted again each time.
///
/// The directory is created with mode 700 when missing, and refused when it belongs to
/// another user or others may write in it (they could replace the key). The key file is
/// refused when it belongs to another user or group or others may read it; it is written
/// with mode 600 under a temporary name and renamed into place (`PEMFile.save`).
package struct CertificateStore: Sendable {
    /// The certificate's file name in the directory.
    package static let certificateFileName = "tls-cert.pem"
    /// The key's file name in the directory.
    package static let keyFileName = "tls-key.pem"
    /// A certificate that expires within this time is replaced: 30 days, so that a daemon
    /// restarted now and then never runs into the expiry.
    package static let renewalMargin: TimeInterval = 30 * 86_400

    /// A certificate and key ready for `TLSCredentials`.
    package struct Pair: Sendable {
        /// The certificate in PEM.
        package var certificatePEM: String
        /// The private key in PEM.
        package var keyPEM: String
        /// The certificate's SHA-256 fingerprint (`CertificateFingerprint`), for the log.
        package var fingerprint: String
        /// Why a new pair was made ("no certificate yet", "the certificate does not cover
        /// 192.0.2.7", ...); nil when the stored pair is used again.
        package var renewalReason: String?
    }

    /// The directory holding the two files.
    package let directory: String

    /// A store in `directory` (usually `StateDirectory.resolve`).
    package init(directory: String) {
        self.directory = directory
    }

    /// The certificate's path.
    package var certificatePath: String { directory + "/" + Self.certificateFileName }
    /// The key's path.
    package var keyPath: String { directory + "/" + Self.keyFileName }

    /// The pair to serve at `now` for `subject`: the stored one when it is still good (see
    /// the type's comment), otherwise a new one, saved before it is returned.
    package func pair(for subject: CertificateSubject, now: Date = Date()) throws(TLSSetupError) -> Pair {
        try prepareDirectory()
        let reason: String
        switch try verdict(for: subject, now: now) {
        case .reuse(let stored): return stored
        case .renew(let why): reason = why
        }
        let made = try SelfSignedCertificate(subject: subject, now: now)
        try PEMFile.save(made.keyPEM, to: keyPath, mode: 0o600)
        try PEMFile.save(made.certificatePEM, to: certificatePath, mode: 0o644)
        return Pair(
            certificatePEM: made.certificatePEM, keyPEM: made.keyPEM,
            fingerprint: try Self.fingerprint(made.certificate), renewalReason: reason)
    }

    /// Whether the stored pair can be served.
    private enum Verdict {
        /// It can: here it is.
        case reuse(Pair)
        /// It cannot, for this reason (as the log line says it).
        case renew(String)
    }

    /// The verdict on the stored pair at `now` for `subject`. Throws only for what a new pair
    /// would not cure: a key others can read, files of another user, links.
    private func verdict(for subject: CertificateSubject, now: Date) throws(TLSSetupError) -> Verdict {
        guard let key = try ownFile(keyPath, what: "TLS key") else { return .renew("no certificate yet") }
        guard key.mode & 0o077 == 0 else { throw .openPermissions(keyPath, mode: UInt32(key.mode), required: "600") }
        guard let certificate = try ownFile(certificatePath, what: "TLS certificate") else {
            return .renew("the certificate file was missing")
        }
        guard let parsedKey = try? Certificate.PrivateKey(pemEncoded: key.text) else {
            return .renew("the stored key did not parse")
        }
        guard let parsedCertificate = try? Certificate(pemEncoded: certificate.text) else {
            return .renew("the stored certificate did not parse")
        }
        if let why = Self.renewalReason(certificate: parsedCertificate, key: parsedKey, subject: subject, now: now) {
            return .renew(why)
        }
        return .reuse(
            Pair(
                certificatePEM: certificate.text, keyPEM: key.text,
                fingerprint: try Self.fingerprint(parsedCertificate), renewalReason: nil))
    }

    /// Why a stored certificate must be replaced at `now` for `subject`; nil when it is good.
    static func renewalReason(
        certificate: Certificate, key: Certificate.PrivateKey,
        subject: CertificateSubject, now: Date
    ) -> String? {
        guard key.publicKey == certificate.publicKey else { return "the stored key does not match the certificate" }
        if certificate.notValidBefore > now {
            return "the certificate is not valid before \(certificate.notValidBefore)"
        }
        if certificate.notValidAfter.timeIntervalSince(now) < renewalMargin {
            return certificate.notValidAfter <= now
                ? "the certificate expired on \(certificate.notValidAfter)"
                : "the certificate expires on \(certificate.notValidAfter)"
        }
        // Made before its authority was limited to this host: trusted as a root on a phone,
        // it could vouch for any site.
        if (try? certificate.extensions.nameConstraints) == nil {
            return "the certificate could vouch for any site (it had no name constraints)"
        }
        guard let names = try? certificate.extensions.subjectAlternativeNames else {
            return "the certificate has no readable subject alternative names"
        }
        var dnsNames = Set<String>()
        var addresses = Set<IPAddress>()
        for name in names {
            switch name {
            case .dnsName(let dns): dnsNames.insert(dns.lowercased())
            case .ipAddress(let octets): IPAddress(bytes: Array(octets.bytes)).map { _ = addresses.insert($0) }
            default: break
            }
        }
        if let missing = subject.dnsNames.first(where: { !dnsNames.contains($0) }) {
            return "the certificate does not cover the name \(missing)"
        }
        if let missing = subject.ipAddresses.first(where: { ($0.isV4 || $0.isLoopback) && !addresses.contains($0) }) {
            return "the certificate does not cover the address \(missing)"
        }
        return nil
    }

    /// One of the store's files, read without following a link and checked to be this
    /// user's; nil when it does not exist.
    private func ownFile(_ path: String, what: String) throws(TLSSetupError) -> PEMFile.Contents? {
        do {
            let contents = try PEMFile.load(path, what: what, followLinks: false)
            try Self.checkOwner(path, contents.owner)
            return contents
        } catch .missing {
            return nil
        }
    }

    /// Creates the directory (and missing parents) with mode 700, then checks that it is a
    /// directory of this user that others cannot write to. A symbolic link to a directory is
    /// accepted: systemd's `DynamicUser=` makes the state directory one.
    private func prepareDirectory() throws(TLSSetupError) {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .system(path, operation: "mkdir", reason: TLSSetupError.errnoText)
            }
        }
        guard let status = FileStatus(path: directory) else {
            throw .system(directory, operation: "stat", reason: TLSSetupError.errnoText)
        }
        guard status.isDirectory else { throw .notADirectory(directory) }
        try Self.checkOwner(directory, uid_t(status.owner))
        guard status.mode & 0o022 == 0 else {
            throw .openPermissions(directory, mode: UInt32(status.mode), required: "700")
        }
    }

    private static func checkOwner(_ path: String, _ owner: uid_t) throws(TLSSetupError) {
        guard owner == geteuid() else { throw .foreignOwner(path, owner: UInt32(owner)) }
    }

    private static func fingerprint(_ certificate: Certificate) throws(TLSSetupError) -> String {
        do {
            return try CertificateFingerprint.sha256(certificate)
        } catch {
            throw .generation("cannot encode the certificate: \(error)")
        }
    }
}
