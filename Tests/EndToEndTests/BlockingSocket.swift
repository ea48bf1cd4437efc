import FeedProtocol
import Foundation

/// A minimal blocking socket for end-to-end tests of the binary: a TCP connection on the
/// loopback interface or a Unix stream socket (the feed); free ports, waiting for a server to
/// listen, relaying bytes between two servers, reading JSON lines.
final class BlockingSocket: @unchecked Sendable {
    let descriptor: Int32
    /// Bytes read but not yet returned as a line.
    private var pending: [UInt8] = []

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Connects to 127.0.0.1:`port`, retrying for up to `timeout` seconds while the server
    /// starts; a read then waits up to 0.2 s.
    static func connect(port: Int, timeout: Double = 10) throws -> BlockingSocket {
        try connect(domain: AF_INET, to: "127.0.0.1:\(port)", timeout: timeout, readTimeout: 0.2) { fd in
            var address = loopback(port: port)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Connects to the Unix socket at `path`, retrying for up to `timeout` seconds while the
    /// daemon starts; a read then waits up to 5 s.
    static func connect(path: String, timeout: Double = 10) throws -> BlockingSocket {
        try connect(domain: AF_UNIX, to: path, timeout: timeout, readTimeout: 5) { SocketPath.connect($0, to: path) }
    }

    /// Opens a stream socket of `domain` and calls `attempt` on it until it returns 0 or
    /// `timeout` seconds pass; `name` is the address for the error.
    private static func connect(
        domain: Int32, to name: String, timeout: Double, readTimeout: Double,
        attempt: (Int32) -> Int32
    ) throws -> BlockingSocket {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = socket(domain, Int32(SOCK_STREAM.rawValue), 0)
            if attempt(fd) == 0 {
                var wait = timeval(
                    tv_sec: Int(readTimeout), tv_usec: Int((readTimeout - readTimeout.rounded(.down)) * 1e6))
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                return BlockingSocket(descriptor: fd)
            }
            close(fd)
            guard Date() < deadline else {
                throw NSError(
                    domain: "BlockingSocket", code: Int(errno),
                    userInfo: [NSLocalizedDescriptionKey: "cannot connect to \(name)"])
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// `count` distinct ports that are free right now (the system picks them).
    static func freePorts(_ count: Int) -> [Int] {
        var descriptors: [Int32] = []
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = loopback(port: 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            ports.append(Int(UInt16(bigEndian: bound.sin_port)))
            descriptors.append(fd)
        }
        for fd in descriptors { close(fd) }
        return ports
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket `accept` returned, to write to.
    static func adopt(_ descriptor: Int32) -> BlockingSocket {
        BlockingSocket(descriptor: descriptor)
    }

    /// A socket listening on a free loopback port, and the port: something already there.
    static func listener() -> (socket: BlockingSocket, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(fd, 4)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (BlockingSocket(descriptor: fd), Int(UInt16(bigEndian: bound.sin_port)))
    }

    /// Everything received within `seconds`.
    func collect(for seconds: Double) -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        while Date() < deadline, let more = read() { bytes += more }
        return bytes
    }

    /// Bytes available within the receive timeout (empty on timeout), nil at the end of the stream.
    func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        if count > 0 { return Array(buffer[0..<count]) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return [] }
        return nil
    }

    /// Writes all of `bytes`; false when the peer is gone.
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Copies everything `source` sends into `destination` for `seconds`, and on until more
    /// than `minimumBytes` have passed, for at most `limit` seconds in all (a loaded machine
    /// sends them more slowly); returns the bytes copied.
    static func relay(
        from source: BlockingSocket, to destination: BlockingSocket, for seconds: Double,
        minimumBytes: Int = 0, limit: Double = 0
    ) -> Int {
        let start = Date()
        let deadline = start.addingTimeInterval(seconds)
        let end = start.addingTimeInterval(max(seconds, limit))
        var total = 0
        while Date() < deadline || (total <= minimumBytes && Date() < end) {
            guard let bytes = source.read() else { break }
            if bytes.isEmpty { continue }
            guard destination.write(bytes) else { break }
            total += bytes.count
        }
        return total
    }

    /// The next line parsed as a JSON object, or nil after the read timeout or at the end.
    func nextObject() -> [String: Any]? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
            }
            guard let more = read(), !more.isEmpty else { return nil }
            pending += more
        }
    }

    /// Sends one line.
    func sendLine(_ line: String) {
        _ = write(Array((line + "\n").utf8))
    }
}
