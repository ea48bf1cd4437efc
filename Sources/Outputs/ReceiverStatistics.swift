import Pipeline
import Tracking

/// Everything counted so far, read at one moment: stats.json's and /metrics' figures, from
/// the pipeline (frames, sources, the local receiver's samples) and the tracker (tracks).
package struct ReceiverStatistics: Sendable, Equatable {
    /// Frames and state reports.
    package var counters: FrameCounters
    /// Tracks and positions.
    package var tracks: Tracker.Counts
    /// The local receiver's samples, frames, signal and noise (zero with no local receiver).
    package var local: LocalStatistics

    /// Statistics from their parts.
    package init(counters: FrameCounters, tracks: Tracker.Counts, local: LocalStatistics) {
        self.counters = counters
        self.tracks = tracks
        self.local = local
    }

    /// What `pipeline` and `tracker` have counted now.
    package init(pipeline: FramePipeline, tracker: LiveTracker) {
        self.init(counters: pipeline.counters, tracks: tracker.counts, local: pipeline.local)
    }
}
