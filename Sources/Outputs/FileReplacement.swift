import FeedProtocol
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's content in one step without ever following a symbolic link, for a
/// directory that someone else can write to (a web server's document root, say).
///
/// The new content goes to a fresh file with an unpredictable name in the same directory,
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW`: the call fails rather than open anything
/// that already exists, so a link planted there can never redirect the write. The fresh file
/// is then renamed over the target; `rename` replaces a link at the target by the file
/// itself and never writes through it. A reader therefore sees the old file or the new one,
/// never half of one, and nothing outside the directory is touched whatever it contains.
enum FileReplacement {
    /// How many fresh names are tried before giving up (each clash is astronomically unlikely
    /// unless someone keeps planting names).
    static let attempts = 16

    /// Replaces the file at `path` with `text`; throws `OutputError.unusableDirectory` saying
    /// which step failed and why.
    static func replace(path: String, with text: String) throws(OutputError) {
        let (temporary, descriptor) = try createFresh(beside: path)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                let error = failure("write", temporary, code: written < 0 ? errno : EIO)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        // close reports write-back errors some file systems (NFS) only find out about then.
        guard close(descriptor) == 0 else {
            let error = failure("write", temporary, code: errno)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("rename", temporary, code: errno)
            unlink(temporary)
            throw error
        }
    }

    /// A new, empty, private file beside `path` (`.NAME.XXXXXXXXXXXX.tmp`, dot-prefixed so
    /// a directory listing or a web server's index skips it) and its descriptor.
    private static func createFresh(beside path: String) throws(OutputError) -> (String, Int32) {
        let directory = PathText.directory(of: path)
        let name = PathText.lastComponent(of: path)
        var lastError: Int32 = EEXIST
        for _ in 0..<attempts {
            let token = String(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF, radix: 16)
            let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(token).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (temporary, descriptor) }
            lastError = errno
            if lastError != EEXIST && lastError != ELOOP { break }
        }
        throw failure("create", (directory.isEmpty ? "" : directory + "/") + ".\(name).tmp", code: lastError)
    }

    private static func failure(_ operation: String, _ path: String, code: Int32) -> OutputError {
        OutputError.unusableDirectory(
            path: PathText.directory(of: path),
            reason: "\(operation) \(PathText.lastComponent(of: path)): \(String(cString: strerror(code)))")
    }
}
