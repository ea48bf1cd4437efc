import Outputs
import Pipeline
import Tracking

/// The daemon's figures at one moment, as `/metrics` reports them: a plain value, read from
/// `MetricsSources` and the servers' counters, then rendered by `PrometheusExposition`.
package struct MetricsReading: Sendable {
    /// Messages by downlink format, tracks, positions and the local receiver's totals.
    package var statistics: ReceiverStatistics
    /// Aircraft tracked now.
    package var aircraft: Int
    /// Of them, those with a position that is not stale (as aircraft.json shows them).
    package var aircraftWithPosition: Int
    /// Mean power of the frames accepted over the last minute, dBFS; nil when there was none.
    package var signalDBFS: Double?
    /// Mean noise power over the last minute, dBFS; nil when nothing was measured.
    package var noiseDBFS: Double?
    /// Processor time of the whole process so far, seconds.
    package var processSeconds: Double
    /// Frames by the source they came from.
    package var sourceFrames: [(source: String, frames: Int)]
    /// OpenSky requests by outcome.
    package var openSkyRequests: [(outcome: String, requests: Int)]
    /// Clients connected now, by server (`feed_socket`, `websocket`, `beast`, `sbs`, `avr`).
    package var clients: [(server: String, clients: Int)]
    /// HTTP requests the web server has answered.
    package var httpRequests: UInt64
    /// Items each bounded queue between the stages has dropped, by queue.
    package var queueDrops: [(queue: String, dropped: Int)]
    /// Requests and WebSocket messages the web server refused, by reason.
    package var refusals: [(reason: String, count: Int)]

    /// A reading from its parts; the lists default to empty.
    package init(
        statistics: ReceiverStatistics, aircraft: Int, aircraftWithPosition: Int,
        signalDBFS: Double? = nil, noiseDBFS: Double? = nil, processSeconds: Double = 0,
        sourceFrames: [(source: String, frames: Int)] = [],
        openSkyRequests: [(outcome: String, requests: Int)] = [],
        clients: [(server: String, clients: Int)] = [], httpRequests: UInt64 = 0,
        queueDrops: [(queue: String, dropped: Int)] = [], refusals: [(reason: String, count: Int)] = []
    ) {
        self.statistics = statistics
        self.aircraft = aircraft
        self.aircraftWithPosition = aircraftWithPosition
        self.signalDBFS = signalDBFS
        self.noiseDBFS = noiseDBFS
        self.processSeconds = processSeconds
        self.sourceFrames = sourceFrames
        self.openSkyRequests = openSkyRequests
        self.clients = clients
        self.httpRequests = httpRequests
        self.queueDrops = queueDrops
        self.refusals = refusals
    }
}
