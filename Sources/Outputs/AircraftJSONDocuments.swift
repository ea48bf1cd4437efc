import Pipeline
import Tracking

/// `aircraft.json` and `receiver.json` rendered from the live tracker when asked: what the
/// publisher writes into `--json-dir` and what the web server serves from memory under
/// `/data`, so both always agree.
package struct AircraftJSONDocuments: Sendable {
    private let tracker: LiveTracker
    private let pipeline: FramePipeline
    private let version: String
    private let refreshMilliseconds: Int

    /// Documents of `tracker`, with the message count of `pipeline`; `refreshMilliseconds`
    /// tells readers how often the documents change.
    package init(tracker: LiveTracker, pipeline: FramePipeline, version: String, refreshMilliseconds: Int = 1000) {
        self.tracker = tracker
        self.pipeline = pipeline
        self.version = version
        self.refreshMilliseconds = refreshMilliseconds
    }

    /// `aircraft.json` now.
    package func aircraftJSON() -> String {
        let snapshot = tracker.snapshot()
        return AircraftJSONWriter.aircraftJSON(
            now: snapshot.time, messages: pipeline.counters.frames,
            aircraft: snapshot.aircraft, receiver: tracker.receiver)
    }

    /// `receiver.json`.
    package func receiverJSON() -> String {
        AircraftJSONWriter.receiverJSON(
            version: version, refreshMilliseconds: refreshMilliseconds,
            receiver: tracker.receiver)
    }
}
