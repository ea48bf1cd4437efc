import ServiceLifecycle
import Tracking

/// Anything that feeds the tracker: the dongle (`RTLSDRSource`), a recording
/// (`ReplaySource`), a dongle served by rtl_tcp (`RTLTCPSource`), another receiver's Beast
/// output (`BeastInput`), Beast pushed to us (`BeastListener`), the OpenSky Network
/// (`OpenSkySource`). The daemon runs each as a service (`SourceService`), several at once
/// into one tracker, or the dongle with a fallback under `SourceSupervisor`.
package protocol Source: Sendable {
    /// The kind of source, reported as (part of) the radar's source while it runs, e.g.
    /// "rtl-sdr", "beast".
    var name: String { get }
    /// This source among several of its kind, e.g. "beast-in 10.0.0.2:30005": the label of
    /// its frames (`LiveTracker.accept(_:at:from:)`), its counters and its log lines.
    var label: String { get }
    /// Feeds `tracker` until the source ends (a replay without --loop), fails, or the task is
    /// cancelled.
    func run(into tracker: LiveTracker) async throws
}

extension Source {
    /// The kind is label enough for a source the daemon runs once at most.
    package var label: String { name }
}

/// Runs one source as a lifecycle service, naming it among the radar's sources while it
/// runs.
package struct SourceService: Service {
    /// The source.
    package let source: any Source
    /// The tracker it feeds.
    package let tracker: LiveTracker

    /// A service that runs `source` into `tracker`.
    package init(_ source: any Source, tracker: LiveTracker) {
        self.source = source
        self.tracker = tracker
    }

    /// Names the source among the tracker's, then runs it.
    package func run() async throws {
        tracker.setSource(source.name, slot: source.label)
        try await source.run(into: tracker)
    }
}
