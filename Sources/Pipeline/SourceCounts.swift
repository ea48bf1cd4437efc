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

    /// Adds the counts of `other` (a source summed into the rest); the latest frame's time
    /// is the later of the two.
    package mutating func add(_ other: SourceCounts) {
        frames &+= other.frames
        duplicates &+= other.duplicates
        if let last = other.lastFrame { lastFrame = max(lastFrame ?? last, last) }
    }

    /// The `limit` sources that tracked the most frames, most first, then the others summed
    /// as one labelled "N more sources": a list bounded however many sources there are, for
    /// the statistics line.
    package static func busiest(_ counts: [SourceCounts], limit: Int) -> [SourceCounts] {
        guard counts.count > limit else { return counts }
        let sorted = counts.sorted { ($0.frames, $1.label) > ($1.frames, $0.label) }
        var rest = SourceCounts(label: "\(counts.count - limit) more sources")
        for counts in sorted[limit...] { rest.add(counts) }
        return Array(sorted[..<limit]) + [rest]
    }
}
