import ServiceLifecycle
import Tracking

/// Anything that feeds the tracker: the dongle (`RTLSDRSource`), a recording
/// (`ReplaySource`), another receiver's Beast output (`BeastInput`), the OpenSky Network
/// (`OpenSkySource`). The daemon runs one as a service (`SourceService`), or the dongle with a
/// fallback under `SourceSupervisor`.
public protocol Source: Sendable {
    /// The name reported as the radar's current source while this one runs, e.g. "rtl-sdr".
    var name: String { get }
    /// Feeds `tracker` until the source ends (a replay without --loop), fails, or the task is
    /// cancelled.
    func run(into tracker: LiveTracker) async throws
}

/// Runs one source as a lifecycle service, naming it as the radar's current source while
/// it runs.
public struct SourceService: Service {
    /// The source.
    public let source: any Source
    /// The tracker it feeds.
    public let tracker: LiveTracker

    /// A service that runs `source` into `tracker`.
    public init(_ source: any Source, tracker: LiveTracker) {
        self.source = source
        self.tracker = tracker
    }

    /// Names the source, then runs it.
    public func run() async throws {
        tracker.source = source.name
        try await source.run(into: tracker)
    }
}
