import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the feed socket lives and how a client reaches it; the server side (claiming the
/// path before binding) is in FeedServer.
package enum SocketPath {
    /// File name of the default socket in `XDG_RUNTIME_DIR`.
    package static let fileName = "aviator-adsb.sock"

    /// File name of the default socket inside the per-user directory (`privateDirectory`).
    package static let privateFileName = "radar.sock"

    /// Longest path a Unix socket address holds (`sun_path` less its terminating zero).
    package static let maxLength: Int = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `$XDG_RUNTIME_DIR/aviator-adsb.sock` (the per-user runtime directory, private to the
    /// user and cleaned at logout), else `radar.sock` in the user's own directory in the
    /// temporary directory (`privateDirectory`).
    package static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        user: UInt32 = UInt32(geteuid())
    ) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return PathText.appending(fileName, to: runtime)
        }
        let directory = privateDirectory(environment: environment, user: user) ?? "/tmp"
        return PathText.appending(privateFileName, to: directory)
    }

    /// The per-user directory the default socket lives in when there is no `XDG_RUNTIME_DIR`:
    /// `aviator-adsb-UID` in `$TMPDIR`, else in `/tmp`. Every user may create files there, so
    /// the socket is not put there directly (another user could take its name first): the
    /// daemon creates this directory with mode 700, and it and its clients refuse one that is
    /// not theirs (`PrivateDirectory`). Nil when `XDG_RUNTIME_DIR` is set.
    package static func privateDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        user: UInt32 = UInt32(geteuid())
    ) -> String? {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return nil }
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return PathText.appending("aviator-adsb-\(user)", to: temporary)
    }

    /// The Unix socket address of `path` (cut to what `sun_path` holds; callers check the
    /// length against `maxLength` first), for `connect` here and `bind` on the server.
    package static func address(of path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Connects socket `fd` to the Unix socket at `path` (which must fit `sun_path`); the
    /// result of `connect(2)`, with `errno` set on failure.
    package static func connect(_ fd: Int32, to path: String) -> Int32 {
        var address = address(of: path)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

}
