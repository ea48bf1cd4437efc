import Pipeline
import ServiceLifecycle

/// Anything that feeds the pipeline: the dongle (`RTLSDRSource`), a recording
/// (`ReplaySource`), a dongle served by rtl_tcp (`RTLTCPSource`), another receiver's Beast
/// output (`BeastInput`), Beast pushed to us (`BeastListener`), the OpenSky Network
/// (`OpenSkySource`). The daemon runs each as a service (`SourceService`), several at once
/// into one pipeline, or the dongle with a fallback under `SourceSupervisor`.
package protocol Source: Sendable {
    /// The kind of source, reported as (part of) the radar's source while it runs, e.g.
    /// "rtl-sdr", "beast".
    var name: String { get }
    /// This source among several of its kind, e.g. "beast-in 10.0.0.2:30005": the label of
    /// its frames (`FrameSink.accept(_:at:from:)`), its counters and its log lines.
    var label: String { get }
    /// Feeds `sink` until the source ends (a replay without --loop), fails, or the task is
    /// cancelled.
    func run(into sink: any FrameSink) async throws
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
    package let sink: any FrameSink

    /// A service that runs `source` into `sink`.
    package init(_ source: any Source, sink: any FrameSink) {
        self.source = source
        self.sink = sink
    }

    /// Names the source among the pipeline's, then runs it.
    package func run() async throws {
        sink.setSource(source.name, slot: source.label)
        try await source.run(into: sink)
    }
}
