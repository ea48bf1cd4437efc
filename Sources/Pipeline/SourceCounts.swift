/// What one source (the dongle, a replay, one Beast connection or listener, an rtl_tcp
/// server) delivered to the pipeline: the per-source counters of the statistics line, the
/// metrics and stats.json.
package struct SourceCounts: Sendable, Equatable {
    /// The source's label, e.g. "rtl-sdr", "replay", "beast-in 10.0.0.2:30005".
    package var label: String
    /// Frames it delivered that were tracked.
    package var frames = 0
    /// Frames it delivered that another source had delivered just before: dropped.
    package var duplicates = 0
    /// When its last frame arrived (seconds since 1970), nil before the first.
    package var lastFrame: Double?

    /// Nothing counted yet for `label`.
    package init(label: String) {
        self.label = label
    }

    /// "beast-in 10.0.0.2:30005 1234 frames (56 duplicates)".
    package var summary: String {
        "\(label) \(frames) frames" + (duplicates > 0 ? " (\(duplicates) duplicates)" : "")
    }
}
