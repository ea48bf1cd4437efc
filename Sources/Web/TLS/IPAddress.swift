#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as the bytes a certificate's subject alternative name carries:
/// 4 bytes for IPv4, 16 for IPv6, in network order.
///
/// A browser compares the address in the URL with these bytes, not with text, so the
/// certificate and the checks on a stored certificate both work on this form; the text form
/// is for options, tests and log lines.
package struct IPAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The address in network order: 4 or 16 bytes.
    package let bytes: [UInt8]

    /// The address with these bytes; nil unless there are 4 or 16.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address written as `192.0.2.7` or `2001:db8::7`; nil for anything else (names,
    /// zone suffixes, prefixes).
    package init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// 127.0.0.1.
    package static let loopbackV4 = IPAddress(bytes: [127, 0, 0, 1])!
    /// ::1.
    package static let loopbackV6 = IPAddress(bytes: Array(repeating: 0, count: 15) + [1])!

    /// Whether this is an IPv4 address.
    package var isV4: Bool { bytes.count == 4 }

    /// Whether this is a loopback address (127.0.0.0/8 or ::1).
    package var isLoopback: Bool { isV4 ? bytes[0] == 127 : self == Self.loopbackV6 }

    /// Whether this is an IPv6 link-local address (fe80::/10), which a URL can name only
    /// with a zone suffix that browsers do not accept.
    package var isLinkLocalV6: Bool { !isV4 && bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 }

    /// The conventional text form (`inet_ntop`).
    package var description: String {
        let family = isV4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// IPv4 before IPv6, then byte order: a stable order for certificates and log lines.
    package static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        if lhs.bytes.count != rhs.bytes.count { return lhs.bytes.count < rhs.bytes.count }
        return lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
