import SkyProjection
import Tracking

/// The daemon's shared tracker as the feed's source of aircraft: each frame takes a snapshot
/// of the tracker (expiring old aircraft) and the name of the current source.
package struct LiveTrackerSnapshotProvider: RadarSnapshotProvider {
    /// The tracker the receivers feed.
    package let tracker: LiveTracker
    /// The observer the sky is projected for; nil when the receiver position is unknown.
    package let observer: Observer?

    /// A provider for `tracker`, projecting for its receiver at `heightMetres` (0 when the
    /// antenna height is unknown: a few tens of metres shift elevations by a fraction of a
    /// degree at typical distances).
    package init(tracker: LiveTracker, heightMetres: Double = 0) {
        self.tracker = tracker
        observer = tracker.receiver.map { Observer($0, altitudeMetres: heightMetres) }
    }

    /// The tracker's aircraft now.
    package func radarSnapshot() async -> RadarSnapshot {
        let snapshot = tracker.snapshot()
        return RadarSnapshot(
            observer: observer, source: tracker.source, now: snapshot.time, aircraft: snapshot.aircraft)
    }
}
