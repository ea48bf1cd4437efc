import FeedServer
import Outputs
import Pipeline
import Support
import Synchronization
import Tracking

/// `/metrics`: reads the daemon's figures when scraped and answers them in Prometheus's
/// text format. Only the signal and noise window is its own state; every count is read from
/// where the daemon already keeps it, at the moment of the scrape.
final class MetricsEndpoint: Sendable {
    /// The path it answers on.
    static let path = "/metrics"

    private let sources: MetricsSources
    private let feed: FeedServer
    private let counters: WebCounters
    private let window: Mutex<LevelWindow>
    private let started = ContinuousClock.now

    /// An endpoint over `sources`, counting the clients of `feed` and of the web server.
    init(sources: MetricsSources, feed: FeedServer, counters: WebCounters) {
        self.sources = sources
        self.feed = feed
        self.counters = counters
        window = Mutex(LevelWindow(start: 0, local: sources.pipeline.local))
    }

    /// The figures now.
    func reading() async -> MetricsReading {
        let feedStatistics = await feed.statistics()
        let web = counters.snapshot
        let tracker = sources.tracker
        let statistics = ReceiverStatistics(pipeline: sources.pipeline, tracker: tracker)
        let aircraft = tracker.aircraftCounts()
        let seconds = (ContinuousClock.now - started).inSeconds
        let levels = window.withLock { $0.levels(at: seconds, local: statistics.local) }
        // The hub serves both transports; the WebSocket sessions are the web server's own.
        var clients = [
            (server: "feed_socket", clients: max(0, feedStatistics.clients - web.webSocketsOpen)),
            (server: "websocket", clients: web.webSocketsOpen)
        ]
        clients += sources.outputs.map {
            (server: $0.configuration.name.lowercased(), clients: $0.statistics.clientsConnected)
        }
        return MetricsReading(
            statistics: statistics, aircraft: aircraft.all, aircraftWithPosition: aircraft.withPosition,
            signalDBFS: levels.signal, noiseDBFS: levels.noise, processSeconds: sources.processSeconds(),
            sourceFrames: sources.sourceFrames(), openSkyRequests: sources.openSkyRequests(),
            clients: clients, httpRequests: web.requests,
            // The feed's outboxes (one frame waits per client; a newer one replaces it) beside
            // the queues the daemon names.
            queueDrops: [("feed_outbox", Int(clamping: feedStatistics.framesDropped))] + sources.queueDrops(),
            refusals: Self.refusals(web))
    }

    /// What the web server refused so far, by reason, as `/metrics` names them.
    static func refusals(_ web: WebStatistics) -> [(reason: String, count: Int)] {
        [
            ("malformed_request", web.malformedRequests), ("unknown_host", web.unknownHosts),
            ("bad_handshake", web.badHandshakes), ("foreign_origin", web.foreignOrigins),
            ("slow_request", web.slowRequests), ("bad_method", web.badMethods),
            ("malformed_frame", web.malformedFrames), ("invalid_text", web.invalidText),
            ("oversize_message", web.oversizeMessages)
        ].map { ($0.0, Int(clamping: $0.1)) }
    }

    /// The text of a scrape.
    func exposition() async -> String {
        PrometheusExposition.render(await reading())
    }
}
