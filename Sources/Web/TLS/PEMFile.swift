import FeedProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing the PEM files of the web server's certificate and key, with the
/// checks a private key needs.
///
/// Reads are capped (a certificate chain is a few kilobytes; anything past `maximumBytes` is
/// not one) and return the file's status as it was opened, so owner and mode are checked on
/// the file actually read, not on whatever the path names a moment later. Writes go to a new
/// file created exclusively with its final mode, then renamed over the old one, so a reader
/// never sees half a key and the key is never readable by others, not even for a moment.
enum PEMFile {
    /// The largest file read: far above any certificate chain.
    static let maximumBytes = 1 << 20

    /// What a read returns: the bytes and the opened file's status.
    struct Contents {
        var text: String
        var owner: uid_t
        var mode: mode_t
    }

    /// Reads the file at `path`; `what` names it in errors. With `followLinks` false, a
    /// symbolic link at `path` is refused (the certificate store's own files).
    static func load(_ path: String, what: String, followLinks: Bool = true) throws(TLSSetupError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: throw .missing(path, what: what)
            case ELOOP where !followLinks: throw .symbolicLink(path)
            default: throw .unreadable(path, what: what, reason: TLSSetupError.errnoText)
            }
        }
        defer { close(descriptor) }
        guard let info = FileStatus(descriptor: descriptor) else {
            throw .unreadable(path, what: what, reason: TLSSetupError.errnoText)
        }
        guard info.isRegularFile else { throw .unreadable(path, what: what, reason: "not a regular file") }
        guard info.size <= maximumBytes else {
            throw .unreadable(path, what: what, reason: "\(info.size) bytes, more than a certificate file holds")
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path, what: what, reason: TLSSetupError.errnoText) }
            if count == 0 { break }
            filled += count
        }
        guard filled <= maximumBytes else {
            throw .unreadable(
                path, what: what, reason: "more than \(maximumBytes) bytes, more than a certificate file holds")
        }
        return Contents(
            text: String(decoding: bytes.prefix(filled), as: UTF8.self), owner: uid_t(info.owner),
            mode: mode_t(info.mode))
    }

    /// Replaces the file at `path` with `text`, written to a temporary name beside it that is
    /// created exclusively with `mode` (never through a link), flushed to disk, then renamed.
    static func save(_ text: String, to path: String, mode: mode_t) throws(TLSSetupError) {
        var suffix = SystemRandomNumberGenerator()
        let temporary = "\(path).new-\(getpid())-\(String(suffix.next() & 0xFFFF_FFFF, radix: 16))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .system(temporary, operation: "create", reason: TLSSetupError.errnoText) }
        var written = 0
        let bytes = Array(text.utf8)
        var failure: String?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = "write: " + TLSSetupError.errnoText
                break
            }
            written += count
        }
        if failure == nil && fchmod(descriptor, mode) != 0 { failure = "chmod: " + TLSSetupError.errnoText }
        if failure == nil && fsync(descriptor) != 0 { failure = "fsync: " + TLSSetupError.errnoText }
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 { failure = "rename: " + TLSSetupError.errnoText }
        if let failure {
            unlink(temporary)
            throw .system(path, operation: "saving", reason: failure)
        }
    }
}
