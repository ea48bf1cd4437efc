import FeedProtocol
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creates the feed's listening Unix socket with its final file mode. The mode is set by the
/// process's umask while `bind(2)` creates the file, so there is no moment in which the socket
/// exists with looser permissions (as there would be between a bind and a later `chmod`).
enum SocketListener {
    /// The umask is one per process: two binds at once (tests run several servers) must not
    /// see each other's.
    private static let umaskLock = Mutex(())

    /// A socket bound to `path` with file mode `mode` and listening with `backlog`; its
    /// descriptor, which NIO then takes over.
    static func open(path: String, mode: UInt32, backlog: Int32) throws(FeedError) -> Int32 {
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .system(operation: "socket", path: path, message: String(cString: strerror(errno))) }
        var address = SocketPath.address(of: path)
        let (result, code) = umaskLock.withLock { _ -> (Int32, Int32) in
            let previous = umask(mode_t(~mode & 0o777))
            defer { umask(previous) }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            return (result, errno)
        }
        guard result == 0 else {
            close(fd)
            // Another daemon bound the path between the check and the bind.
            if code == EADDRINUSE { throw .alreadyServing(path: path) }
            throw .system(operation: "bind", path: path, message: String(cString: strerror(code)))
        }
        guard listen(fd, backlog) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            throw .system(operation: "listen", path: path, message: message)
        }
        return fd
    }
}
