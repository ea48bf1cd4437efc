import FeedServer
import History
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's web server (`--http`): the radar app at `/`, the feed over WebSocket at
/// `/feed`, `aircraft.json` / `receiver.json` under `/data` and the Prometheus metrics at
/// `/metrics`, over HTTP or HTTPS.
///
/// Use: make it with the running `FeedServer` and a `DataDocuments`, and add it to the
/// daemon's `ServiceGroup`; `run()` listens until the group shuts down. The address it
/// listens on is logged once it does (`--http 0` picks a free port).
package final class WebServer: Service, Sendable {
    /// How it was configured.
    package let configuration: WebConfiguration
    private let feed: FeedServer
    private let documents: any DataDocuments
    private let tls: TLSCredentials?
    private let counters = WebCounters()
    private let metrics: MetricsEndpoint?
    private let history: HistoryEndpoint?

    /// A server for `feed` and `documents`, over HTTPS when `tls` is given, answering
    /// `/metrics` from `metrics` when given (404 otherwise) and the history's endpoints from
    /// `history` when given (404 otherwise), with `clock` as now.
    package init(
        configuration: WebConfiguration, feed: FeedServer, documents: any DataDocuments,
        tls: TLSCredentials? = nil, metrics: MetricsSources? = nil, history: HistoryReader? = nil,
        clock: @escaping @Sendable () -> Double = { Double(time(nil)) }
    ) {
        self.history = history.map { HistoryEndpoint(reader: $0, clock: clock) }
        self.configuration = configuration
        self.feed = feed
        self.documents = documents
        self.tls = tls
        self.metrics = metrics.map { [counters] in MetricsEndpoint(sources: $0, feed: feed, counters: counters) }
    }

    /// Listens and serves until cancelled or a graceful shutdown; throws a `WebError` when it
    /// cannot listen or the TLS setup is unusable.
    package func run() async throws {
        let configuration = self.configuration
        let counters = self.counters
        let socket = FeedSocket(feed: feed, counters: counters, maxMessageBytes: configuration.maxMessageBytes)
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000))),
            ws: .init(
                maxFrameSize: configuration.maxMessageBytes, autoPing: .enabled(timePeriod: .seconds(30)),
                closeTimeout: .seconds(5), validateUTF8: true))
        let deadline = TimeAmount.milliseconds(Int64(configuration.requestHeadTimeout * 1000))
        let tls = self.tls?.serverConfiguration()
        let hosts = AllowedHosts.current(listening: configuration.host, extra: configuration.allowedHosts)
        let server = HTTPServerBuilder { responder -> any ServerChildChannel in
            let http = DeadlineChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: channelConfiguration) {
                    request, channel, _ in
                    socket.shouldUpgrade(request, channel: channel)
                },
                timeout: deadline, counters: counters, hosts: hosts)
            guard let tls else { return http }
            return try HangUpChannel(base: TLSChannel(http, tlsConfiguration: tls))
        }
        let scheme = tls == nil ? "http" : "https"
        let logger = configuration.logger
        let application = Application(
            responder: WebResponder(
                documents: documents, counters: counters, corsOrigin: configuration.corsOrigin,
                metrics: metrics, history: history),
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                availableConnectionsDelegate: ConnectionLimit(maximum: configuration.maxConnections, counters: counters)
            ),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                configuration.onListening?(port)
                logger.info(
                    "web: serving the radar on \(scheme)://\(WebServer.hostForURL(configuration.host)):\(port)/")
            },
            logger: Logger(label: logger.label) { _ in LibraryLogHandler(base: logger.handler) })
        do {
            try await application.run()
        } catch {
            throw WebError.cannotServe(host: configuration.host, port: configuration.port, reason: Self.reason(error))
        }
    }

    /// Binds `host:port` and lets it go at once, so that an address in use (or not this
    /// machine's, or below 1024 without the right) is a clear error at start, before anything
    /// else runs; the server binds it again when its service starts. Port 0 is not checked.
    package static func checkAddress(host: String, port: Int) async throws {
        guard port != 0 else { return }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
            try await channel.close()
        } catch {
            throw WebError.cannotServe(host: host, port: port, reason: reason(error))
        }
    }

    /// The system's words for a failed bind, not NIO's account of the call.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as IOError where error.errnoCode == EADDRINUSE: "the address is already in use"
        case let error as IOError: String(cString: strerror(error.errnoCode))
        default: "\(error)"
        }
    }

    /// The server's counters.
    package func statistics() -> WebStatistics { counters.snapshot }

    /// IPv6 addresses go in brackets in a URL.
    static func hostForURL(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}

/// Why the web server could not start; one line for the log.
package enum WebError: Error, CustomStringConvertible {
    /// Listening failed (address in use, no permission, bad address) or TLS was unusable.
    case cannotServe(host: String, port: Int, reason: String)

    package var description: String {
        switch self {
        case .cannotServe(let host, let port, let reason):
            "web: cannot serve on \(WebServer.hostForURL(host)):\(port): \(reason)"
        }
    }
}
