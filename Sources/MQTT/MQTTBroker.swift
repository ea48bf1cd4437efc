/// Where an MQTT broker is: host, port and whether the connection is TLS, read from an
/// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]` URL.
///
/// Credentials never travel in the URL (a command line shows in `ps` to every user of the
/// machine): they come from the environment (`MQTTCredentials`), and a URL carrying any is
/// refused with a sentence saying so.
package struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    /// The conventional port of plain MQTT.
    package static let plainPort = 1883
    /// The conventional port of MQTT over TLS.
    package static let tlsPort = 8883

    /// Host name or address (an IPv6 address without brackets).
    package var host: String
    /// TCP port.
    package var port: Int
    /// Whether to speak TLS (`mqtts://`).
    package var usesTLS: Bool

    /// A broker from its parts.
    package init(host: String, port: Int, usesTLS: Bool) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// Reads `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]` (a trailing `/` is allowed); throws
    /// one sentence saying what is wrong.
    package init(url text: String) throws(MQTTError) {
        let scheme: Bool
        var rest: Substring
        if text.hasPrefix("mqtt://") {
            scheme = false
            rest = text.dropFirst("mqtt://".count)
        } else if text.hasPrefix("mqtts://") {
            scheme = true
            rest = text.dropFirst("mqtts://".count)
        } else {
            throw MQTTError("'\(text)' is not an mqtt:// or mqtts:// URL")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("@") {
            throw MQTTError(
                "put the user name and password in AVIATOR_MQTT_USERNAME and AVIATOR_MQTT_PASSWORD, not in the URL (a command line is visible to every user)"
            )
        }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") {
            throw MQTTError("an MQTT URL has no path or query: mqtt://HOST[:PORT]")
        }
        var host = rest
        var port = scheme ? Self.tlsPort : Self.plainPort
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw MQTTError("unclosed [ in '\(text)'") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else {
                    throw MQTTError("bad port in '\(text)'")
                }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            // mqtt://2001:db8::1 would otherwise be host 2001:db8: on port 1.
            guard rest.firstIndex(of: ":") == colon else {
                throw MQTTError("put an IPv6 address in brackets: mqtt://[\(rest)]")
            }
            guard let number = Int(rest[rest.index(after: colon)...]) else { throw MQTTError("bad port in '\(text)'") }
            host = rest[..<colon]
            port = number
        }
        guard !host.isEmpty else { throw MQTTError("no host in '\(text)'") }
        guard (1...65535).contains(port) else { throw MQTTError("port \(port) is not between 1 and 65535") }
        self.init(host: String(host), port: port, usesTLS: scheme)
    }

    /// "mqtt://HOST:PORT", with an IPv6 host in brackets: for log lines and labels.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(shownHost):\(port)"
    }

    /// "HOST:PORT", with an IPv6 host in brackets.
    package var endpoint: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
