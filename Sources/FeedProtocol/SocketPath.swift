import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the feed socket lives and how a client reaches it; the server side (claiming the
/// path before binding) is in FeedServer.
public enum SocketPath {
    /// File name of the default socket.
    public static let fileName = "aviator-adsb.sock"

    /// Longest path a Unix socket address holds (`sun_path` less its terminating zero).
    public static let maxLength: Int = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `$XDG_RUNTIME_DIR/aviator-adsb.sock` (the per-user runtime directory, private to the
    /// user and cleaned at logout), else `aviator-adsb.sock` in the temporary directory.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return (runtime as NSString).appendingPathComponent(fileName)
        }
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (temporary as NSString).appendingPathComponent(fileName)
    }

    /// Connects socket `fd` to the Unix socket at `path` (which must fit `sun_path`); the
    /// result of `connect(2)`, with `errno` set on failure.
    public static func connect(_ fd: Int32, to path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

}
