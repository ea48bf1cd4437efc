import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The per-user directory that holds the default feed socket when there is no
/// `XDG_RUNTIME_DIR`, in a temporary directory every user can write to. Whoever creates a
/// path there first owns it, so the daemon and its clients accept the directory only when it
/// is a real directory (not a symbolic link), owned by the current user, and closed to group
/// and others; anything else may be another user's trap (a squatted socket that hears the
/// client's commands or feeds it a false sky) and is refused.
package enum PrivateDirectory {
    /// Why a directory cannot be trusted or made; each description is one line for stderr.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// There is nothing at the path (for a client: no daemon has made it yet).
        case missing(String)
        /// A symbolic link stands where the directory should be.
        case symbolicLink(String)
        /// Something other than a directory stands there.
        case notADirectory(String)
        /// The directory belongs to another user.
        case foreignOwner(String, owner: UInt32)
        /// Group or others have permissions on it.
        case openPermissions(String, mode: UInt32)
        /// A system call failed.
        case system(String, operation: String, message: String)

        /// One line naming the directory and what to do.
        package var description: String {
            switch self {
            case .missing(let path):
                "socket directory \(path) does not exist; is aviator-adsb running?"
            case .symbolicLink(let path):
                "refusing socket directory \(path): it is a symbolic link; remove it or use --socket"
            case .notADirectory(let path):
                "refusing socket directory \(path): it is not a directory; remove it or use --socket"
            case .foreignOwner(let path, let owner):
                "refusing socket directory \(path): it belongs to user \(owner), not to you (\(geteuid())); use --socket"
            case .openPermissions(let path, let mode):
                "refusing socket directory \(path): mode \(String(mode & 0o7777, radix: 8)) lets others in; it must be 700 (chmod 700 \(path))"
            case .system(let path, let operation, let message):
                "socket directory \(path): \(operation) failed: \(message)"
            }
        }
    }

    /// Checks that `path` is a directory the current user can trust (see the type's comment).
    package static func check(_ path: String) throws(Problem) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { throw .missing(path) }
            throw .system(path, operation: "stat", message: String(cString: strerror(errno)))
        }
        try check(path, info)
    }

    /// Creates `path` with mode 700 if it is missing, then checks it as `check` does. The
    /// daemon calls this; clients only check.
    package static func create(_ path: String) throws(Problem) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .system(path, operation: "mkdir", message: String(cString: strerror(errno)))
        }
        try check(path)
    }

    private static func check(_ path: String, _ info: stat) throws(Problem) {
        switch info.st_mode & S_IFMT {
        case S_IFLNK: throw .symbolicLink(path)
        case S_IFDIR: break
        default: throw .notADirectory(path)
        }
        guard info.st_uid == geteuid() else { throw .foreignOwner(path, owner: UInt32(info.st_uid)) }
        guard info.st_mode & 0o077 == 0 else { throw .openPermissions(path, mode: UInt32(info.st_mode)) }
    }
}
