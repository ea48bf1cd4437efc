import Pipeline
import SkyProjection
import Tracking

/// The daemon's shared tracker as the feed's source of aircraft: each frame takes a snapshot
/// of the tracker and the name of the current source, which the pipeline knows.
package struct LiveTrackerSnapshotProvider: RadarSnapshotProvider {
    /// The tracker the pipeline feeds.
    package let tracker: LiveTracker
    /// The pipeline, which knows what feeds it now.
    package let pipeline: FramePipeline
    /// The observer the sky is projected for; nil when the receiver position is unknown.
    package let observer: Observer?

    /// A provider for `tracker` fed by `pipeline`, projecting for its receiver at
    /// `heightMetres` (0 when the antenna height is unknown: a few tens of metres shift
    /// elevations by a fraction of a degree at typical distances).
    package init(tracker: LiveTracker, pipeline: FramePipeline, heightMetres: Double = 0) {
        self.tracker = tracker
        self.pipeline = pipeline
        observer = tracker.receiver.map { Observer($0, altitudeMetres: heightMetres) }
    }

    /// The tracker's aircraft now. A read only: aircraft leave the tracker on its expiry timer.
    package func radarSnapshot() async -> RadarSnapshot {
        let snapshot = tracker.snapshot()
        return RadarSnapshot(
            observer: observer, source: pipeline.source, now: snapshot.time, aircraft: snapshot.aircraft)
    }
}
