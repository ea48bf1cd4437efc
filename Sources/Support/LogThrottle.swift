/// Decides when an event that may repeat in a flood (a client refused, an accept that found no
/// free descriptor) earns a log line: at most `burst` lines per interval (the first at once),
/// each saying how many events happened since the last line. The counters keep the exact
/// figures. Shared by the feed server, the TCP outputs and the network sources.
package struct LogThrottle: Sendable {
    /// The interval in which at most `burst` lines are written.
    package let interval: Duration
    /// Lines allowed within one interval: 1 for events that only matter as a count, a few
    /// for events each worth a line (a receiver going offline) unless they come in a flood.
    package let burst: Int
    /// When the lines within the last interval were written.
    private var lines: [ContinuousClock.Instant] = []
    private var unreported = 0

    /// A throttle allowing `burst` lines per `interval`.
    package init(interval: Duration = .seconds(10), burst: Int = 1) {
        self.interval = interval
        self.burst = max(1, burst)
    }

    /// Records one event at `now`; returns how many events the line to log now covers, or nil
    /// when this one waits for a later line.
    package mutating func record(now: ContinuousClock.Instant) -> Int? {
        unreported += 1
        lines.removeAll { now - $0 >= interval }
        guard lines.count < burst else { return nil }
        lines.append(now)
        defer { unreported = 0 }
        return unreported
    }
}
