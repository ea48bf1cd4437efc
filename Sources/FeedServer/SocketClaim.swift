import FeedProtocol
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Getting the socket path ready before binding: a socket file left behind by a crashed run is
/// removed, while one that a running daemon still answers on is refused, so two daemons never
/// silently steal each other's clients.
extension SocketPath {
    /// Makes `path` free for binding: checks its length and directory, and deals with a file
    /// already there (removed when it is a socket nobody answers on, an error otherwise).
    package static func prepare(_ path: String) throws(FeedError) {
        if path.utf8.count > maxLength { throw .pathTooLong(path: path, limit: maxLength) }
        if path.isEmpty { throw .invalidConfiguration("the feed socket path is empty") }
        let directory = PathText.directory(of: path)
        var info = stat()
        if !directory.isEmpty, stat(directory, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            throw .missingDirectory(path: path, directory: directory)
        }
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .system(operation: "stat", path: path, message: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        switch probe(path) {
        case .accepted:
            throw .alreadyServing(path: path)
        case .refused:
            // Nobody listens: a leftover from a run that did not exit cleanly.
            if unlink(path) != 0 && errno != ENOENT {
                throw .system(
                    operation: "removing the stale socket", path: path, message: String(cString: strerror(errno)))
            }
        case .failed(let message):
            throw .system(operation: "connect", path: path, message: message)
        }
    }

    /// The identity (device and inode) of the file at `path`, to remove it later only if it is
    /// still the one this process created.
    package static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Removes the socket at `path` if it is still `identity` (another daemon may have
    /// replaced it after this one's was removed by hand).
    package static func remove(_ path: String, ifStill identity: FileIdentity?) {
        guard let identity, self.identity(of: path) == identity else { return }
        unlink(path)
    }

    /// The outcome of trying to connect to an existing socket file.
    enum ProbeResult: Equatable {
        case accepted
        case refused
        case failed(String)
    }

    /// Tries a connection to `path`.
    static func probe(_ path: String) -> ProbeResult {
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
        defer { close(fd) }
        if connect(fd, to: path) == 0 { return .accepted }
        switch errno {
        // Refused: the file is there but nothing listens. ENOENT: it vanished meanwhile.
        case ECONNREFUSED, ENOENT: return .refused
        // A listener whose backlog is full is still a live daemon.
        case EAGAIN: return .accepted
        default: return .failed(String(cString: strerror(errno)))
        }
    }
}

/// A file's device and inode numbers.
package struct FileIdentity: Sendable, Equatable {
    /// Device number.
    package var device: UInt64
    /// Inode number.
    package var inode: UInt64
}
