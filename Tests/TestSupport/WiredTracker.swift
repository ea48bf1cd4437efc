import ModeS
import Pipeline
import Tracking

/// A tracker fed through a pipeline, wired as the daemon wires them: tests hand frames to
/// the pipeline and read aircraft from the tracker through one value. Each call goes to the
/// stage that owns it; as a `FrameSink` it stands for the pipeline.
package final class WiredTracker: FrameSink {
    /// The tracker, which merges.
    package let tracker: LiveTracker
    /// The pipeline in front of it, which admits, decodes and counts.
    package let pipeline: FramePipeline

    /// A tracker and its pipeline for a receiver at `receiver`, both on `clock`.
    package init(
        receiver: GeoPoint?, maxRangeKm: Double = 500,
        clock: @escaping @Sendable () -> Double = FramePipeline.wallClock
    ) {
        tracker = LiveTracker(receiver: receiver, maxRangeKm: maxRangeKm, clock: clock)
        pipeline = FramePipeline(receiver: receiver, downstream: tracker, clock: clock)
    }

    /// `FramePipeline.accept(_:at:from:)`.
    @discardableResult
    package func accept(_ frame: Frame, at time: Double, from source: String = FramePipeline.localSource) -> Bool {
        pipeline.accept(frame, at: time, from: source)
    }

    /// `FramePipeline.accept(_:)` for a state report.
    package func accept(_ report: StateReport) { pipeline.accept(report) }

    /// Hands the tracker `state` as an aggregator would report it (the fields a state report
    /// carries), through the pipeline.
    package func accept(_ state: AircraftState) {
        var report = StateReport(icao: state.icao, lastSeen: state.lastSeen)
        report.callsign = state.callsign
        report.category = state.category
        report.squawk = state.squawk
        report.position = state.position
        report.positionTime = state.positionTime
        report.altitudeBaroFt = state.altitudeBaroFt
        report.altitudeGeoFt = state.altitudeGeoFt
        report.groundSpeedKt = state.groundSpeedKt
        report.trackDeg = state.trackDeg
        report.verticalRateFpm = state.verticalRateFpm
        report.onGround = state.onGround
        pipeline.accept(report)
    }

    /// The pipeline's counters.
    package var counters: FrameCounters { pipeline.counters }
    /// The pipeline's counts by source.
    package var sourceCounts: [SourceCounts] { pipeline.sourceCounts }
    /// The pipeline's current source names.
    package var source: String { pipeline.source }
    /// `FramePipeline.setSource(_:slot:)`.
    package func setSource(_ name: String?, slot: String) { pipeline.setSource(name, slot: slot) }
    /// `FramePipeline.addLocal(_:)`.
    package func addLocal(_ block: LocalStatistics) { pipeline.addLocal(block) }
    /// `FramePipeline.setPosition(_:ofSource:)`.
    package func setPosition(_ position: GeoPoint?, ofSource source: String) {
        pipeline.setPosition(position, ofSource: source)
    }

    /// `FramePipeline.forgetSource(_:)`.
    package func forgetSource(_ source: String) { pipeline.forgetSource(source) }

    /// The tracker's snapshot.
    package func snapshot() -> (time: Double, aircraft: [AircraftState]) { tracker.snapshot() }
    /// The tracker's aircraft counts.
    package func aircraftCounts() -> (all: Int, withPosition: Int) { tracker.aircraftCounts() }
    /// `LiveTracker.expire()`.
    @discardableResult
    package func expire() -> Int { tracker.expire() }
    /// `LiveTracker.addFrameListener(_:)`.
    package func addFrameListener(_ listener: @escaping LiveTracker.FrameListener) {
        tracker.addFrameListener(listener)
    }
    /// The tracker's receiver position.
    package var receiver: GeoPoint? { tracker.receiver }
    /// The tracker's clock.
    package var now: Double { tracker.now }
}
