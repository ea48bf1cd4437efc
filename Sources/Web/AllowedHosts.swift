/// The host names and addresses the server answers to, checked against each request's
/// `Host` so that a page of another site whose name was made to point at this machine (DNS
/// rebinding) reads nothing: its requests carry its own name.
///
/// Served: `localhost`, the loopback addresses, the address the server listens on, the host's
/// names as the self-signed certificate lists them (`HOSTNAME`, its first label,
/// `LABEL.local`), the addresses of its interfaces (read again when an address is not
/// known yet, as they may change while the daemon runs), and the names given with
/// `--http-host`. The port in `Host` is not compared; a trailing dot and letter case are
/// ignored.
struct AllowedHosts: Sendable {
    /// Names and address texts, lower case, without brackets.
    let names: Set<String>

    /// The hosts for a server listening on `listening`, on a host whose certificate subject
    /// would be `subject`, with the names of `--http-host` in `extra`.
    init(listening: String, extra: [String], subject: CertificateSubject) {
        var names = Set(subject.dnsNames + extra.map { $0.lowercased() } + ["localhost"])
        for address in subject.ipAddresses + [IPAddress.loopbackV4, IPAddress.loopbackV6] {
            names.insert(address.description)
        }
        let listened = listening.lowercased()
        if let address = IPAddress(listened) {
            if address.bytes.contains(where: { $0 != 0 }) { names.insert(address.description) }
        } else {
            names.insert(listened)
        }
        self.names = names
    }

    /// The hosts for this machine now.
    static func current(listening: String, extra: [String]) -> AllowedHosts {
        AllowedHosts(
            listening: listening, extra: extra,
            subject: .host(CertificateSubject.currentHostName(), addresses: HostAddresses.current()))
    }

    /// Whether a request with this `Host` value is served.
    func allows(_ host: String) -> Bool {
        guard let name = Self.name(inHost: host) else { return false }
        if names.contains(name) { return true }
        guard let address = IPAddress(name) else { return false }
        return address.isLoopback || names.contains(address.description)
            || HostAddresses.current().contains(address)
    }

    /// The name or address in a `Host` value, lower case, without port, brackets or a
    /// trailing dot; nil when the value is not of that form.
    static func name(inHost value: String) -> String? {
        var text = Substring(value.lowercased())
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else {
                return nil
            }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            text = text[..<colon]
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        return text.isEmpty ? nil : String(text)
    }
}

extension Character {
    /// Whether this is one of 0 to 9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
