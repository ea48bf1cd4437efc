#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the web server's TLS certificate could not be loaded or made. Each description is
/// one line for stderr that names the file and says what to do; the daemon stops on any of
/// them rather than serve plain HTTP when HTTPS was asked for.
package enum TLSSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file at the path; `what` names it ("TLS certificate", "TLS key").
    case missing(String, what: String)
    /// The file exists but cannot be read.
    case unreadable(String, what: String, reason: String)
    /// The file holds no PEM block of the expected kind.
    case notPEM(String, what: String)
    /// The file is PEM but its content cannot be used.
    case unusable(String, what: String, reason: String)
    /// The key does not belong to the certificate.
    case keyMismatch(certificate: String, key: String)
    /// A symbolic link stands where the certificate store expects a file or directory.
    case symbolicLink(String)
    /// Something other than a directory stands where the state directory should be.
    case notADirectory(String)
    /// The file or directory belongs to another user.
    case foreignOwner(String, owner: UInt32)
    /// The private key can be read by group or others, or the directory written by them.
    case openPermissions(String, mode: UInt32, required: String)
    /// No state directory could be found for the self-signed certificate.
    case noStateDirectory
    /// A system call failed.
    case system(String, operation: String, reason: String)
    /// Making the certificate failed.
    case generation(String)

    /// One line naming the file and what to do.
    package var description: String {
        switch self {
        case .missing(let path, let what):
            "\(what) file \(path) does not exist"
        case .unreadable(let path, let what, let reason):
            "cannot read \(what) file \(path): \(reason)"
        case .notPEM(let path, let what):
            "\(what) file \(path) is not PEM (expected a -----BEGIN ...----- block)"
        case .unusable(let path, let what, let reason):
            "\(what) file \(path) cannot be used: \(reason)"
        case .keyMismatch(let certificate, let key):
            "TLS key \(key) does not match the certificate \(certificate)"
        case .symbolicLink(let path):
            "refusing \(path): it is a symbolic link"
        case .notADirectory(let path):
            "refusing state directory \(path): it is not a directory"
        case .foreignOwner(let path, let owner):
            "refusing \(path): it belongs to user \(owner), not to this user (\(geteuid()))"
        case .openPermissions(let path, let mode, let required):
            "refusing \(path): mode \(String(mode & 0o7777, radix: 8)) lets others in; it must be \(required) (chmod \(required) \(path))"
        case .noStateDirectory:
            "no state directory for the TLS certificate: set STATE_DIRECTORY, XDG_STATE_HOME or HOME, or use --state-dir"
        case .system(let path, let operation, let reason):
            "\(path): \(operation) failed: \(reason)"
        case .generation(let reason):
            "cannot make the self-signed TLS certificate: \(reason)"
        }
    }

    /// The text of the current `errno`.
    static var errnoText: String { String(cString: strerror(errno)) }
}
