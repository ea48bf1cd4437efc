#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The addresses a phone on the same network can reach this host at: every address of the
/// interfaces that are up, read with `getifaddrs`.
///
/// Loopback addresses are left out (the certificate names them anyway), and so are IPv6
/// link-local addresses (fe80::/10): a URL can reach them only with a zone suffix
/// (`[fe80::1%wlan0]`), which browsers do not accept.
package enum HostAddresses {
    /// The host's non-loopback addresses, sorted, without repeats; empty when the interfaces
    /// cannot be read.
    package static func current() -> [IPAddress] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var found = Set<IPAddress>()
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard entry.pointee.ifa_flags & UInt32(IFF_UP) != 0,
                let address = entry.pointee.ifa_addr.flatMap(Self.address),
                !address.isLoopback, !address.isLinkLocalV6
            else { continue }
            found.insert(address)
        }
        return found.sorted()
    }

    /// The IP address in a socket address; nil for other families (link layer and the like).
    static func address(_ socketAddress: UnsafeMutablePointer<sockaddr>) -> IPAddress? {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                withUnsafeBytes(of: v4.pointee.sin_addr) { IPAddress(bytes: Array($0)) }
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafeBytes(of: v6.pointee.sin6_addr) { IPAddress(bytes: Array($0)) }
            }
        default:
            return nil
        }
    }
}
