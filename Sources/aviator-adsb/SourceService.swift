import Tracking
import ServiceLifecycle

/// Runs one source that feeds the tracker (a replay, a network input) as a lifecycle service,
/// naming it as the radar's current source while it runs.
struct SourceService: Service {
    /// The name reported in radar frames.
    let name: String
    let tracker: LiveTracker
    let body: @Sendable (LiveTracker) async throws -> Void

    func run() async throws {
        tracker.source = name
        try await body(tracker)
    }
}
