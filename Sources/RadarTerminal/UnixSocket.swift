import FeedProtocol
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few blocking POSIX socket calls a feed client needs.
enum UnixSocket {
    /// Connects a stream socket to `path`: the descriptor, or why it failed in words.
    static func connect(path: String) -> Result<Int32, FeedClientError> {
        guard path.utf8.count <= SocketPath.maxLength else {
            return .failure(FeedClientError("socket path longer than \(SocketPath.maxLength) bytes: \(path)"))
        }
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failure(FeedClientError("socket: \(String(cString: strerror(errno)))")) }
        #if !os(Linux)
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard SocketPath.connect(fd, to: path) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            return .failure(FeedClientError("cannot connect to \(path): \(message)"))
        }
        return .success(fd)
    }

    /// Writes all of `bytes`; false when the connection is gone, or (not `waiting`) when the
    /// peer's buffer is full, in which case nothing of a short line is written (the kernel
    /// takes a small write whole or not at all). Never raises SIGPIPE.
    static func write(_ fd: Int32, _ bytes: [UInt8], waiting: Bool = true) -> Bool {
        var offset = 0
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        #else
            let flags = waiting ? Int32(0) : Int32(MSG_DONTWAIT)
        #endif
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Waits up to `seconds` for `fd` to have something to read (or be closed); false on timeout.
    static func waitReadable(_ fd: Int32, seconds: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(seconds, 3600)) * 1000)
        let result = poll(&descriptor, 1, milliseconds)
        return result > 0
    }
}

/// Why talking to the feed failed, in words for people, and of which kind, for callers
/// that act differently on an answer than on a failure to get one.
package struct FeedClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as far as a caller needs to branch on it.
    package enum Kind: Sendable, Equatable {
        /// No usable answer: no socket, no daemon, a lost connection, a terminal that cannot
        /// be set up. Trying again later may help.
        case failed
        /// The daemon answered and rejected what was asked (a view it does not accept):
        /// asking the same again gets the same answer.
        case refused
    }

    /// One sentence.
    package var message: String
    /// Whether the daemon refused or could not be reached.
    package var kind: Kind

    /// An error with its message, a failure to get an answer unless `kind` says otherwise.
    package init(_ message: String, kind: Kind = .failed) {
        self.message = message
        self.kind = kind
    }

    /// The message.
    package var description: String { message }
}
