import Ingest
import Radar
import ServiceLifecycle

/// The radar feed as a lifecycle service: frames until the group shuts down, then the socket
/// is closed and removed.
struct FeedService: Service {
    let server: FeedServer

    func run() async throws {
        try await server.run()
    }
}

/// Serves the live tracker to the feed: the observer, the current source and the aircraft.
struct TrackerSnapshotProvider: RadarSnapshotProvider {
    let tracker: LiveTracker
    let observer: Observer?

    func radarSnapshot() async -> RadarSnapshot {
        let snapshot = tracker.snapshot()
        return RadarSnapshot(observer: observer, source: tracker.source, now: snapshot.time,
                             aircraft: snapshot.aircraft)
    }
}
