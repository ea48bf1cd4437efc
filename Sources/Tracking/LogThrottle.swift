/// Decides when an event that may repeat in a flood (a client refused, an accept that found no
/// free descriptor) earns a log line: the first at once, then at most one line per interval,
/// which says how many happened since the last line. The counters keep the exact figures.
/// Shared by the feed server and the TCP outputs, which both depend on this module.
public struct LogThrottle: Sendable {
    /// Shortest time between two lines.
    public let interval: Duration
    private var lastLine: ContinuousClock.Instant?
    private var unreported = 0

    /// A throttle allowing one line per `interval`.
    public init(interval: Duration = .seconds(10)) {
        self.interval = interval
    }

    /// Records one event at `now`; returns how many events the line to log now covers, or nil
    /// when this one waits for a later line.
    public mutating func record(now: ContinuousClock.Instant) -> Int? {
        unreported += 1
        if let lastLine, now - lastLine < interval { return nil }
        lastLine = now
        defer { unreported = 0 }
        return unreported
    }
}
