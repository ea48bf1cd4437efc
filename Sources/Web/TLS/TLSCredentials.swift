import NIOSSL
import SwiftASN1
import X509

/// The certificate chain and private key the web server presents, checked to belong
/// together, and the server configuration made from them.
///
/// They come either from files the user names (`--tls-cert`, `--tls-key`: a chain with the
/// server's certificate first, and its key, in PEM) or from the `CertificateStore`'s
/// self-signed pair. Loading checks everything a TLS handshake would otherwise fail on much
/// later and less clearly: files that are missing or not PEM, a key of another certificate.
package struct TLSCredentials: Sendable {
    /// The chain, the server's own certificate first.
    package let certificateChain: [NIOSSLCertificate]
    /// The private key of the first certificate.
    package let privateKey: NIOSSLPrivateKey
    /// The SHA-256 fingerprint of the server's certificate (`CertificateFingerprint`).
    package let fingerprint: String

    /// Credentials from PEM text; `certificateSource` and `keySource` name where the text
    /// came from in errors (a path, or "the stored certificate").
    package init(
        certificatePEM: String, keyPEM: String,
        certificateSource: String = "certificate", keySource: String = "key"
    ) throws(TLSSetupError) {
        let certificateWhat = "TLS certificate"
        let keyWhat = "TLS key"
        guard certificatePEM.contains("-----BEGIN CERTIFICATE-----") else {
            throw .notPEM(certificateSource, what: certificateWhat)
        }
        guard keyPEM.contains("-----BEGIN ") && keyPEM.contains("PRIVATE KEY-----") else {
            throw .notPEM(keySource, what: keyWhat)
        }
        let chain: [NIOSSLCertificate]
        let leaf: Certificate
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
            leaf = try Certificate(derEncoded: chain.first?.toDERBytes() ?? [])
        } catch {
            throw .unusable(certificateSource, what: certificateWhat, reason: "it does not hold a readable certificate")
        }
        guard !keyPEM.contains("ENCRYPTED") else {
            throw .unusable(keySource, what: keyWhat, reason: "the key is encrypted; give it without a passphrase")
        }
        let key: Certificate.PrivateKey
        do {
            key = try Certificate.PrivateKey(pemEncoded: keyPEM)
            privateKey = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        } catch {
            throw .unusable(keySource, what: keyWhat, reason: "it does not hold a readable RSA or EC private key")
        }
        guard key.publicKey == leaf.publicKey else {
            throw .keyMismatch(certificate: certificateSource, key: keySource)
        }
        do {
            fingerprint = try CertificateFingerprint.sha256(leaf)
        } catch {
            throw .unusable(certificateSource, what: certificateWhat, reason: "it cannot be encoded again (\(error))")
        }
        certificateChain = chain
    }

    /// Credentials from the user's files.
    package static func load(certificateFile: String, keyFile: String) throws(TLSSetupError) -> TLSCredentials {
        let certificate = try PEMFile.load(certificateFile, what: "TLS certificate")
        let key = try PEMFile.load(keyFile, what: "TLS key")
        return try TLSCredentials(
            certificatePEM: certificate.text, keyPEM: key.text,
            certificateSource: certificateFile, keySource: keyFile)
    }

    /// Credentials from the store's pair, which it made or checked itself.
    package init(_ pair: CertificateStore.Pair) throws(TLSSetupError) {
        try self.init(
            certificatePEM: pair.certificatePEM, keyPEM: pair.keyPEM,
            certificateSource: "stored certificate", keySource: "stored key")
    }

    /// A server configuration presenting these credentials, TLS 1.2 at least: older versions
    /// are broken and every phone and browser that can use the radar speaks 1.2.
    package func serverConfiguration() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificateChain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
