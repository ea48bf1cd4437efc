/// One row for the store, made by `HistoryRecorder` from the tracker's snapshots and written
/// by `HistoryStore` in the next batch. Plain values, handed from the sampling task to the
/// writer through `HistoryQueue`.
package enum HistoryRecord: Sendable, Equatable {
    /// What is known of one visit of an aircraft (replaces the visit's earlier row).
    case sighting(Sighting)
    /// A position kept by the thinning rule.
    case position(TrackPoint)
    /// One minute's statistics.
    case minute(MinuteStatistics)
    /// A new furthest position in one sector and altitude band for one hour.
    case coverage(CoverageCell)
}
