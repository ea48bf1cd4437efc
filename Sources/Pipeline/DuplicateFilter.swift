import ModeS

/// Recognises a frame that another source delivered moments ago: when two receivers (a
/// dongle and a Beast feed, two network peers) hear the same reply, it is one message and
/// must be tracked and counted once.
///
/// A frame is a duplicate when the same bits came from a different source within `window`
/// seconds. The same bits from the same source are not: an aircraft repeats identical
/// replies (all-call replies, unchanged velocities) and each one was really transmitted.
/// The window covers the delay of a network feed behind the local receiver; an identical
/// reply really sent twice within it and heard by two sources is counted once, which loses
/// nothing the tracker would use. Multilateration results are never duplicates: they are made
/// up by a server, not heard.
///
/// A plain value: the pipeline keeps one under its lock, with the time passed in.
///
/// Most receivers have one source, and then no frame can be a copy: while every frame kept
/// comes from one source they are only listed in order, and the lookup by bits (a hash
/// table a few thousand frames large, which the demodulator's work between two frames
/// pushes out of the caches) is built only once a second source delivers, and dropped once
/// the window again holds frames of one source alone. The answers are the same either way.
package struct DuplicateFilter: Sendable {
    /// How long a frame from one source hides the same bits from another, in seconds.
    package let window: Double
    /// The newest frame kept of each bits: only while `indexed`.
    private var seen: [ModeSBits: (time: Double, source: String)] = [:]
    /// Frames in the order they were recorded, for forgetting them once out of the window;
    /// those from `oldest` on are kept.
    private var order: [(bits: ModeSBits, time: Double, source: String)] = []
    private var oldest = 0
    /// Whether `seen` holds the frames kept; when not, they all come from one source.
    private var indexed = false
    /// The position in `order` of the newest frame kept when a frame from another source
    /// than it came last; once it is forgotten (`oldest` past it, or -1), every frame kept
    /// comes from one source.
    private var lastChange = -1

    /// How far a time may lie behind the newest recorded before the clock counts as having
    /// stepped back, in seconds. What is kept meanwhile is at most this much more traffic.
    package static let clockStep: Double = 60

    /// A filter with a `window` in seconds (2 s by default).
    package init(window: Double = 2) {
        self.window = window
    }

    /// Whether `bits` from `source` at `time` repeat what another source delivered within the
    /// window; records them when not.
    package mutating func isDuplicate(_ bits: ModeSBits, from source: String, at time: Double) -> Bool {
        // The wall clock stepped back: what was recorded lies "ahead" and would be kept (and
        // the memory grow) until the clock caught up. Starting afresh may count a frame
        // twice, once. A source a few seconds behind the others (a demodulator catching up, a
        // slow network feed) is not a step: it would start afresh on each of its frames.
        if let newest = order.last?.time, time < newest - max(window, Self.clockStep) { forgetAll() }
        forget(before: time - window)
        // Another source than the last frame kept: the lookup is needed (and kept) at least
        // until every frame kept now is forgotten.
        let anotherSource = oldest < order.count && order[order.count - 1].source != source
        if anotherSource { lastChange = order.count - 1 }
        if indexed, oldest > lastChange {
            indexed = false
            seen.removeAll(keepingCapacity: true)
        }
        if !indexed {
            // Every frame kept comes from this source: from it, nothing is a copy.
            guard anotherSource else {
                record(bits, from: source, at: time)
                return false
            }
            for entry in order[oldest...] { seen[entry.bits] = (entry.time, entry.source) }
            indexed = true
        }
        if let earlier = seen[bits], earlier.source != source, abs(time - earlier.time) <= window {
            return true
        }
        record(bits, from: source, at: time)
        return false
    }

    /// Frames remembered now (for tests: the memory stays bounded by the window).
    package var remembered: Int { order.count - oldest }

    /// Whether the lookup by bits is kept now (for tests: only with several sources).
    package var isIndexed: Bool { indexed }

    private mutating func record(_ bits: ModeSBits, from source: String, at time: Double) {
        order.append((bits, time, source))
        if indexed { seen[bits] = (time, source) }
    }

    private mutating func forgetAll() {
        seen.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        oldest = 0
        indexed = false
        lastChange = -1
    }

    private mutating func forget(before limit: Double) {
        while oldest < order.count, order[oldest].time < limit {
            if indexed {
                let entry = order[oldest]
                if let current = seen[entry.bits], current.time == entry.time { seen[entry.bits] = nil }
            }
            oldest += 1
        }
        // Compact now and then so the array does not grow without bound.
        if oldest > 4096, oldest * 2 > order.count {
            order.removeFirst(oldest)
            lastChange -= oldest
            oldest = 0
        }
    }
}
