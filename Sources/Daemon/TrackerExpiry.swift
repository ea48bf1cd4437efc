import ServiceLifecycle
import Tracking

/// Forgets aircraft that have gone quiet, every few seconds, for as long as the daemon runs.
/// Readers of the tracker (the feed, the outputs, the statistics) only read; this is the one
/// place aircraft leave it.
package struct TrackerExpiry: Service {
    /// The tracker to keep tidy.
    package let tracker: LiveTracker
    /// Time between two passes; an aircraft outlives `Tracker.expireAfter` by at most this.
    package let interval: Duration

    /// Expiry of `tracker` every `interval`.
    package init(tracker: LiveTracker, interval: Duration = .seconds(5)) {
        self.tracker = tracker
        self.interval = interval
    }

    /// Runs until cancelled or, inside a `ServiceGroup`, a graceful shutdown begins.
    package func run() async {
        await cancelWhenGracefulShutdown { await tracker.expireRegularly(every: interval) }
    }
}
