import Logging

/// Everything the web server needs besides the feed and the data it serves.
package struct WebConfiguration: Sendable {
    /// Address to listen on: 127.0.0.1 unless the user opens it to the network.
    package var host: String
    /// TCP port; 0 lets the system choose (the log says which).
    package var port: Int
    /// An `Origin` allowed to read `/data/*.json` from another site (tar1090 elsewhere), sent
    /// back as `Access-Control-Allow-Origin`; nil sends no CORS header, so browsers keep other
    /// sites' pages from reading the data.
    package var corsOrigin: String?
    /// Host names the server answers to besides its own (`--http-host`): a name in DNS or a
    /// proxy's that points at this machine. Requests for other hosts get 421 (`AllowedHosts`).
    package var allowedHosts: [String] = []
    /// Most connections open at once (pages, WebSockets, keep-alive); beyond it the server
    /// stops accepting until one closes, counted, so a flood cannot use up the daemon's
    /// descriptors.
    package var maxConnections: Int
    /// Seconds a client has to send a whole request head once it has started one (or to get
    /// through the TLS handshake): slow senders are closed, counted.
    package var requestHeadTimeout: Double
    /// Seconds an idle keep-alive connection stays open.
    package var idleTimeout: Double
    /// Largest WebSocket message a client may send; a view command is well under 1 KB.
    package var maxMessageBytes: Int
    /// Where requests the server refuses and its start are logged.
    package var logger: Logger
    /// Told the port once the server listens (useful with port 0).
    package var onListening: (@Sendable (Int) -> Void)?

    /// Whether `name` can be given to `allowedHosts`: a host name (letters, digits, hyphens,
    /// dots) or an IP address, without port or brackets.
    package static func isHostName(_ name: String) -> Bool {
        let bare = name.hasSuffix(".") ? String(name.dropLast()) : name
        return CertificateSubject.isValidDNSName(bare) || IPAddress(name) != nil
    }

    /// Default of `maxConnections`: the feed's own client limit plus room for page loads.
    package static let defaultMaxConnections = 512

    /// A configuration with the defaults above.
    package init(
        host: String = "127.0.0.1", port: Int, corsOrigin: String? = nil,
        maxConnections: Int = WebConfiguration.defaultMaxConnections, requestHeadTimeout: Double = 10,
        idleTimeout: Double = 60, maxMessageBytes: Int = 64 * 1024,
        logger: Logger = Logger(label: "aviator-adsb.web")
    ) {
        self.host = host
        self.port = port
        self.corsOrigin = corsOrigin
        self.maxConnections = maxConnections
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.maxMessageBytes = maxMessageBytes
        self.logger = logger
    }
}
