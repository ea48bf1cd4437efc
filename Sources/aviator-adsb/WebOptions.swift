import ArgumentParser
import Daemon
import FeedServer
import FoundationEssentials
import Logging
import Outputs
import Support
import Web

/// The options of the web server: where it listens, TLS, and who may read its data.
struct WebOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve the web radar, the feed over WebSocket (/feed), /data/aircraft.json and Prometheus metrics (/metrics) on [ADDR:]PORT; ADDR defaults to 127.0.0.1, 0.0.0.0 opens it to the network.",
            valueName: "[addr:]port"))
    var http: ListenArgument?

    @Flag(
        name: .customLong("tls-self-signed"),
        help:
            "Serve HTTPS with a certificate the daemon makes for this host and keeps in --state-dir (phones give compass and location only to secure pages)."
    )
    var tlsSelfSigned = false

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "Serve HTTPS with this certificate chain (PEM, the server's certificate first).", valueName: "file"))
    var tlsCertificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The private key of --tls-cert (PEM, no passphrase).", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Where the daemon keeps its self-signed certificate and the gain the adaptive gain settled on (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/aviator-adsb, else ~/.local/state/aviator-adsb).",
            valueName: "dir"))
    var stateDirectory: String?

    @Option(
        name: .customLong("http-cors"),
        help: ArgumentHelp(
            "Let pages of this origin (e.g. http://tar1090.local) read /data/*.json; off by default.",
            valueName: "origin"))
    var httpCORS: String?

    @Flag(name: .customLong("no-metrics"), help: "Do not serve the Prometheus metrics at /metrics on the web server.")
    var noMetrics = false

    @Option(
        name: .customLong("http-max-connections"),
        help: ArgumentHelp(
            "Most web connections open at once (pages and WebSockets); beyond it new ones wait.", valueName: "n"))
    var maxConnections: Int = WebConfiguration.defaultMaxConnections

    @Option(
        name: .customLong("http-host"),
        help: ArgumentHelp(
            "Also answer requests for this host name (repeatable): a DNS name or a proxy's that points here. The host's own names and addresses, localhost and the listening address are always answered; others get 421.",
            valueName: "name"))
    var httpHosts: [String] = []

    func validate() throws {
        for name in httpHosts where !WebConfiguration.isHostName(name) {
            throw ValidationError("--http-host takes a host name or an IP address such as radar.example, got '\(name)'")
        }
        if let httpCORS,
            !(httpCORS.hasPrefix("http://") || httpCORS.hasPrefix("https://"))
                || httpCORS.contains(where: \.isWhitespace)
        {
            throw ValidationError("--http-cors takes an origin such as http://tar1090.local:8080, got '\(httpCORS)'")
        }
        if http == nil,
            httpCORS != nil || tlsSelfSigned || tlsCertificate != nil || tlsKey != nil || noMetrics
                || !httpHosts.isEmpty
        {
            throw ValidationError(
                "--http-cors, --http-host, --tls-self-signed, --tls-cert, --tls-key and --no-metrics apply to --http")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if tlsSelfSigned && tlsCertificate != nil {
            throw ValidationError("--tls-self-signed and --tls-cert exclude each other")
        }
        if !(1...65_536).contains(maxConnections) {
            throw ValidationError("--http-max-connections must be between 1 and 65536, got \(maxConnections)")
        }
    }

    /// The web server's settings, when `--http` is given, with its TLS credentials loaded (or
    /// made) and their fingerprint logged, and `/metrics` unless `--no-metrics`. A TLS problem
    /// is one `RuntimeError` line.
    func settings(logger: Logger) throws -> DaemonConfiguration.WebSettings? {
        guard let http else { return nil }
        var server = WebConfiguration(
            host: http.host, port: http.port, corsOrigin: httpCORS, maxConnections: maxConnections, logger: logger)
        server.allowedHosts = httpHosts
        return DaemonConfiguration.WebSettings(
            server: server, tls: try credentials(logger: logger), metrics: !noMetrics)
    }

    /// The TLS credentials the options ask for; nil for plain HTTP.
    private func credentials(logger: Logger) throws -> TLSCredentials? {
        do throws(TLSSetupError) {
            if let tlsCertificate, let tlsKey {
                let credentials = try TLSCredentials.load(certificateFile: tlsCertificate, keyFile: tlsKey)
                logger.info(
                    "web: TLS with \(tlsCertificate); certificate SHA-256 fingerprint \(credentials.fingerprint)")
                return credentials
            }
            guard tlsSelfSigned else { return nil }
            guard
                let directory = stateDirectory
                    ?? StateDirectory.resolve(environment: ProcessInfo.processInfo.environment)
            else {
                throw TLSSetupError.noStateDirectory
            }
            let pair = try CertificateStore(directory: directory).pair(for: .current())
            let credentials = try TLSCredentials(pair)
            let origin = pair.renewalReason.map { "made now: \($0)" } ?? "kept from an earlier start"
            logger.info(
                "web: TLS with the self-signed certificate in \(directory) (\(origin)); SHA-256 fingerprint \(credentials.fingerprint)"
            )
            return credentials
        } catch {
            throw RuntimeError(error.description)
        }
    }
}
