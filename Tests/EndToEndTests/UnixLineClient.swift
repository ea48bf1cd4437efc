import Foundation

/// A minimal blocking client of a Unix stream socket that reads newline-delimited JSON, for
/// end-to-end tests of the feed.
final class UnixLineClient {
    private let descriptor: Int32
    private var pending = Data()

    /// Connects to `path`, retrying for up to `timeout` seconds while the daemon starts.
    init(path: String, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                let bytes = Array(path.utf8.prefix(raw.count - 1))
                raw.copyBytes(from: bytes + [0])
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 {
                descriptor = fd
                var wait = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                return
            }
            close(fd)
            guard Date() < deadline else {
                throw NSError(domain: "UnixLineClient", code: Int(errno),
                              userInfo: [NSLocalizedDescriptionKey: "cannot connect to \(path)"])
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit { close(descriptor) }

    /// The next line parsed as a JSON object, or nil after a timeout or at the end.
    func nextObject() -> [String: Any]? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
            }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Sends one line.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
