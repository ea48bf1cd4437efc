/// Decides which positions of one aircraft are stored, so that a track keeps its shape at a
/// fraction of the points: the rule tar1090's traces follow, with constants of our own.
///
/// A position is kept when it is the first, when `maxInterval` seconds have passed since the
/// last kept one, or when the aircraft changed what it does since the last kept one: its track
/// by more than `turnDeg` degrees, its vertical rate by more than `climbChangeFpm`, its
/// altitude by more than `altitudeChangeFt`, or it landed or took off. On such a change the
/// position before it (the last one not kept) is kept too, so a turn starts where it began
/// rather than one interval late. Positions less than `minInterval` after the last kept one
/// are never kept.
///
/// A state machine over the positions offered, time carried in each.
package struct TrackThinner: Sendable {
    /// The rule's constants.
    package struct Rule: Sendable, Equatable {
        /// Track change that keeps a point, degrees.
        package var turnDeg = 4.0
        /// Vertical rate change that keeps a point, feet per minute.
        package var climbChangeFpm = 500
        /// Altitude change that keeps a point, feet.
        package var altitudeChangeFt = 500
        /// Longest gap between kept points while heard, seconds.
        package var maxInterval = 30.0
        /// Shortest gap between kept points, seconds.
        package var minInterval = 1.0

        /// The constants docs/history.md gives.
        package init() {}
    }

    private let rule: Rule
    private var lastKept: TrackPoint?
    private var skipped: TrackPoint?

    /// A thinner with `rule`.
    package init(rule: Rule = Rule()) { self.rule = rule }

    /// The points to store now that `point` was heard: none, `point`, or the point before it
    /// and `point` (oldest first).
    package mutating func offer(_ point: TrackPoint) -> [TrackPoint] {
        guard let last = lastKept else {
            lastKept = point
            return [point]
        }
        let gap = point.time - last.time
        guard gap >= rule.minInterval else {
            skipped = point
            return []
        }
        if changed(from: last, to: point) {
            var kept: [TrackPoint] = []
            if let skipped, skipped.time > last.time, point.time - skipped.time >= rule.minInterval {
                kept.append(skipped)
            }
            kept.append(point)
            keep(point)
            return kept
        }
        if gap >= rule.maxInterval {
            keep(point)
            return [point]
        }
        skipped = point
        return []
    }

    private mutating func keep(_ point: TrackPoint) {
        lastKept = point
        skipped = nil
    }

    /// Whether the aircraft changed what it does between `a` and `b`.
    func changed(from a: TrackPoint, to b: TrackPoint) -> Bool {
        if a.onGround != b.onGround { return true }
        if let t1 = a.trackDeg, let t2 = b.trackDeg, Self.angleBetween(t1, t2) > rule.turnDeg { return true }
        if let r1 = a.verticalRateFpm, let r2 = b.verticalRateFpm, abs(r1 - r2) > rule.climbChangeFpm { return true }
        if let h1 = a.altitudeFt, let h2 = b.altitudeFt, abs(h1 - h2) > rule.altitudeChangeFt { return true }
        return false
    }

    /// The smaller angle between two directions, degrees in [0, 180].
    static func angleBetween(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return difference > 180 ? 360 - difference : difference
    }
}
