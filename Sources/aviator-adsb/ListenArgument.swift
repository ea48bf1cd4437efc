import ArgumentParser
import FoundationEssentials
import ModeS
import Support

/// Where a server listens, as typed: `PORT`, `ADDR:PORT` or `[IPv6]:PORT`. Without an
/// address it listens on 127.0.0.1 only: opening a server to the network is the user's
/// explicit choice. Port 0 lets the system pick one (the log names it).
struct ListenArgument: ExpressibleByArgument, Sendable, Equatable {
    /// The address to bind.
    var host: String
    /// The TCP port, 0 to 65535.
    var port: Int

    /// The address used when none is given.
    static let defaultHost = "127.0.0.1"

    /// An address from its parts.
    init(host: String = ListenArgument.defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses the forms above; nil (a usage error) for anything else.
    init?(argument: String) {
        let text = argument.trimmingWhitespace()
        guard let colon = text.lastIndex(of: ":") else {
            guard let port = Int(text), (0...65_535).contains(port) else { return nil }
            self.init(port: port)
            return
        }
        guard let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil  // an IPv6 address needs brackets to be told from its port
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        self.init(host: host, port: port)
    }

    /// As it would be typed, for `--help`.
    var defaultValueDescription: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
