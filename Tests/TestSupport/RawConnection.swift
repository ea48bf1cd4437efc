import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to 127.0.0.1 that sends exactly the bytes a test gives it, for clients no
/// library would be: slow senders, broken WebSocket frames, clients that never read. Its reads
/// wait on a thread of their own (`onOwnThread`), never on the cooperative pool the server
/// under test needs. One test uses a connection at a time.
package final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    /// Bytes read past what the last `read(until:)` asked for.
    private var pending: [UInt8] = []

    /// Connects; `receiveBuffer` shrinks the socket's receive buffer first (a client that
    /// stops reading then holds up its sender sooner).
    package init(port: Int, receiveBuffer: Int? = nil) throws {
        // The socket is this connection's only once it is connected. A class whose every
        // stored property is set runs `deinit` even when its init then throws, so setting
        // `descriptor` before a failed connect would close the socket twice: the second
        // time, the number may already be another thread's new socket.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawConnectionError("socket: errno \(errno)") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawConnectionError("connect: errno \(code)")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// This end's port.
    package var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The TCP state (as in `/proc/net/tcp`: "01" established, "04" closing after its
    /// own close…) of the other end's socket of this connection, when that end is this
    /// process's, as a server under test is; seen without reading anything, where a client
    /// that never reads could not tell its server closed the connection (the close waits
    /// behind the data it has not read).
    package var serverSideState: String? {
        // Read to the end: the kernel writes the table a page per read, and a reader that
        // takes a short read for the end misses the connections past the first page.
        let file = open("/proc/net/tcp", O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var table: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = Glibc.read(file, &chunk, chunk.count), count > 0 { table += chunk[..<count] }
        let ours = String(format: ":%04X", localPort)
        for line in String(decoding: table, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            // sl, local address, remote address, state: the server's socket has our port as its remote one.
            guard fields.count > 3, fields[2].hasSuffix(ours), fields[1].hasPrefix("0100007F:"),
                fields[3] != "06"
            else { continue }  // not an earlier connection's time-wait
            return String(fields[3])
        }
        return nil
    }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    package func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads until the peer closes or `timeout` passes; the bytes and whether it closed.
    package func readAll(timeout: Double) async -> (bytes: [UInt8], closed: Bool) {
        (try? await onOwnThread { self.blockingReadAll(timeout: timeout) }) ?? ([], false)
    }

    private func blockingReadAll(timeout: Double) -> (bytes: [UInt8], closed: Bool) {
        var received = pending
        pending = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, min(left, 100)) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return (received, true) }
            received += buffer[0..<count]
        }
        return (received, false)
    }

    /// Reads until `marker` has arrived and returns what came up to and including it (what
    /// follows stays for the next read); nil when `timeout` passes first.
    package func read(until marker: String, timeout: Double) async -> String? {
        (try? await onOwnThread { self.blockingRead(until: marker, timeout: timeout) }) ?? nil
    }

    private func blockingRead(until marker: String, timeout: Double) -> String? {
        var received = pending
        pending = []
        if let found = split(&received, at: marker) { return found }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
            if let found = split(&received, at: marker) { return found }
        }
        pending = received
        return nil
    }

    /// The text up to the end of `marker`, keeping the rest in `pending`.
    private func split(_ received: inout [UInt8], at marker: String) -> String? {
        let needle = Array(marker.utf8)
        guard received.count >= needle.count else { return nil }
        for start in 0...(received.count - needle.count)
        where received[start..<start + needle.count].elementsEqual(needle) {
            let end = start + needle.count
            pending = Array(received[end...])
            return String(decoding: received[..<end], as: UTF8.self)
        }
        return nil
    }

    /// The WebSocket handshake for `path`, with an `Origin` when given; the server's answer head.
    package func upgrade(path: String = "/feed", origin: String? = nil) async -> String? {
        sendUpgrade(path: path, origin: origin)
        return await read(until: "\r\n\r\n", timeout: 10)
    }

    /// Sends the WebSocket handshake for `path` without reading the answer (for a client
    /// that never reads).
    package func sendUpgrade(path: String = "/feed", origin: String? = nil) {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        send(request + "\r\n")
    }

    /// A masked client frame (clients must mask) with `opcode` and `payload`.
    package static func frame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(mask | UInt8(payload.count))
        } else if payload.count < 65_536 {
            bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += key
        bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return bytes
    }
}

/// Why a raw connection could not be made.
package struct RawConnectionError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
