import Pipeline

/// Signal and noise levels over the last minute, from the local receiver's running totals
/// read at each scrape. The totals hold power sums, so the mean over a period is exact: the
/// difference of two totals, divided by the difference of their counts. The window's start
/// is the newest reading kept that is at least `span` old (during the first minute, the
/// first one), so the levels move with the sky rather than with the daemon's whole life.
///
/// A state machine with time passed in (seconds on a monotonic clock). At most one reading a
/// second is kept and those older than the window's start are dropped, so a flood of
/// scrapes keeps about `span` readings.
struct LevelWindow {
    /// Seconds the levels are averaged over.
    static let span = 60.0

    private var kept: [(time: Double, local: LocalStatistics)]

    /// A window that starts at `time` with the totals `local`.
    init(start time: Double, local: LocalStatistics = LocalStatistics()) {
        kept = [(time, local)]
    }

    /// Readings kept now (for tests of the bound).
    var count: Int { kept.count }

    /// The mean signal and noise levels (dBFS) between the window's start and `local`, the
    /// totals at `time`; each nil when nothing was measured in the window.
    mutating func levels(at time: Double, local: LocalStatistics) -> (signal: Double?, noise: Double?) {
        let start = kept.lastIndex { time - $0.time >= Self.span } ?? 0
        kept.removeFirst(start)
        let period = local.since(kept[0].local)
        if time - kept[kept.count - 1].time >= 1 { kept.append((time, local)) }
        return (period.meanSignalDBFS, period.meanNoiseDBFS)
    }
}
