import ArgumentParser
import FeedServer
import Logging
import Outputs
import Web

/// The options of the web server: where it listens, TLS, and who may read its data.
struct WebOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Serve the web radar, the feed over WebSocket (/feed) and /data/aircraft.json on [ADDR:]PORT; ADDR defaults to 127.0.0.1, 0.0.0.0 opens it to the network.", valueName: "[addr:]port"))
    var http: ListenArgument?

    @Option(name: .customLong("http-cors"), help: ArgumentHelp("Let pages of this origin (e.g. http://tar1090.local) read /data/*.json; off by default.", valueName: "origin"))
    var httpCORS: String?

    @Option(name: .customLong("http-max-connections"), help: ArgumentHelp("Most web connections open at once (pages and WebSockets); beyond it new ones wait.", valueName: "n"))
    var maxConnections: Int = WebConfiguration.defaultMaxConnections

    func validate() throws {
        if let httpCORS, !(httpCORS.hasPrefix("http://") || httpCORS.hasPrefix("https://")) || httpCORS.contains(where: \.isWhitespace) {
            throw ValidationError("--http-cors takes an origin such as http://tar1090.local:8080, got '\(httpCORS)'")
        }
        if httpCORS != nil && http == nil { throw ValidationError("--http-cors applies to --http") }
        if !(1...65_536).contains(maxConnections) {
            throw ValidationError("--http-max-connections must be between 1 and 65536, got \(maxConnections)")
        }
    }

    /// The web server, when `--http` is given.
    func server(feed: FeedServer, documents: AircraftJSONDocuments?, logger: Logger) -> WebServer? {
        guard let http, let documents else { return nil }
        let configuration = WebConfiguration(host: http.host, port: http.port, corsOrigin: httpCORS,
                                             maxConnections: maxConnections, logger: logger)
        return WebServer(configuration: configuration, feed: feed, documents: documents)
    }
}
