#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who the self-signed certificate speaks for: the host's name (for the subject's common
/// name), the DNS names and the IP addresses a browser may find in the URL.
///
/// Browsers ignore the common name and check the URL against the subject alternative names
/// only, so every way a phone may reach the radar must be listed: the host name, its
/// multicast-DNS name (`NAME.local`, what avahi and Bonjour answer to), `localhost`, the
/// loopback addresses and the addresses of the host's interfaces. The values are injectable
/// so that tests are deterministic; `current()` gathers the real ones.
package struct CertificateSubject: Sendable, Equatable {
    /// The host's name as the common name shows it.
    package var hostName: String
    /// DNS names, lower case, each a valid host name, without repeats.
    package var dnsNames: [String]
    /// IP addresses without repeats, in a stable order.
    package var ipAddresses: [IPAddress]

    /// A subject with exactly these names and addresses; DNS names are lower-cased, names
    /// that are not valid host names are dropped, and repeats are removed.
    package init(hostName: String, dnsNames: [String], ipAddresses: [IPAddress]) {
        self.hostName = hostName
        var seenNames = Set<String>()
        self.dnsNames = dnsNames.map { $0.lowercased() }.filter {
            Self.isValidDNSName($0) && seenNames.insert($0).inserted
        }
        var seenAddresses = Set<IPAddress>()
        self.ipAddresses = ipAddresses.filter { seenAddresses.insert($0).inserted }
    }

    /// The subject for a host called `hostName` with these interface addresses: the names
    /// `hostName` (and its first label, when it is a dotted name), `LABEL.local` and
    /// `localhost`; the addresses 127.0.0.1, ::1 and `addresses`.
    package static func host(_ hostName: String, addresses: [IPAddress]) -> CertificateSubject {
        let lowered = hostName.lowercased()
        let firstLabel =
            lowered.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? lowered
        var names = [lowered, firstLabel]
        if isValidDNSName(firstLabel) && firstLabel != "localhost" { names.append(firstLabel + ".local") }
        names.append("localhost")
        return CertificateSubject(
            hostName: hostName, dnsNames: names,
            ipAddresses: [.loopbackV4, .loopbackV6] + addresses.sorted())
    }

    /// The subject for this host now: its name from `gethostname` and the addresses of its
    /// interfaces (`HostAddresses`).
    package static func current() -> CertificateSubject {
        host(currentHostName(), addresses: HostAddresses.current())
    }

    /// The subject's common name, "aviator-adsb on HOSTNAME", cut to the 64 characters
    /// X.509 allows.
    package var commonName: String {
        String("aviator-adsb on \(Self.printable(hostName))".prefix(64))
    }

    /// The host name from `gethostname`, or "localhost" when it cannot be read.
    static func currentHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// Whether `name` is a host name a certificate may carry: dot-separated labels of ASCII
    /// letters, digits and hyphens, 1 to 63 characters each and not starting or ending with a
    /// hyphen, 253 characters at most in all.
    static func isValidDNSName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"),
                bytes.last != UInt8(ascii: "-")
            else { return false }
            return bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
            }
        }
    }

    /// `text` with every character outside printable ASCII replaced by `?`.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }
}
