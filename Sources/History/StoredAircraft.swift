/// One aircraft as the store holds it at a moment of the past: where it was then (between two
/// stored positions, or at the last one before), and its visit's row (identity, category).
/// `HistoryReader.sky(at:limit:)` makes them; the web server turns them into a feed frame.
package struct StoredAircraft: Sendable, Equatable {
    /// Its position then. `point.time` is the moment the position stands for: the moment asked
    /// for when it lies between two stored positions, else the time of the last one before it.
    package var point: TrackPoint
    /// The visit it belongs to, when its row is there.
    package var sighting: Sighting?

    /// An aircraft at `point`, its visit not yet looked up.
    package init(point: TrackPoint, sighting: Sighting? = nil) {
        self.point = point
        self.sighting = sighting
    }
}
