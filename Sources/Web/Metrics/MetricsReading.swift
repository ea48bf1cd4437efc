import Tracking

/// The daemon's figures at one moment, as `/metrics` reports them: a plain value, read from
/// `MetricsSources` and the servers' counters, then rendered by `PrometheusExposition`.
public struct MetricsReading: Sendable {
    /// Messages by downlink format, tracks, positions and the local receiver's totals.
    public var statistics: LiveTracker.Statistics
    /// Aircraft tracked now.
    public var aircraft: Int
    /// Of them, those with a position that is not stale (as aircraft.json shows them).
    public var aircraftWithPosition: Int
    /// Mean power of the frames accepted over the last minute, dBFS; nil when there was none.
    public var signalDBFS: Double?
    /// Mean noise power over the last minute, dBFS; nil when nothing was measured.
    public var noiseDBFS: Double?
    /// Processor time of the whole process so far, seconds.
    public var processSeconds: Double
    /// Frames by the source they came from.
    public var sourceFrames: [(source: String, frames: Int)]
    /// OpenSky requests by outcome.
    public var openSkyRequests: [(outcome: String, requests: Int)]
    /// Clients connected now, by server (`feed_socket`, `websocket`, `beast`, `sbs`, `avr`).
    public var clients: [(server: String, clients: Int)]
    /// HTTP requests the web server has answered.
    public var httpRequests: UInt64

    /// A reading from its parts; the lists default to empty.
    public init(
        statistics: LiveTracker.Statistics, aircraft: Int, aircraftWithPosition: Int,
        signalDBFS: Double? = nil, noiseDBFS: Double? = nil, processSeconds: Double = 0,
        sourceFrames: [(source: String, frames: Int)] = [],
        openSkyRequests: [(outcome: String, requests: Int)] = [],
        clients: [(server: String, clients: Int)] = [], httpRequests: UInt64 = 0
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
    }
}
