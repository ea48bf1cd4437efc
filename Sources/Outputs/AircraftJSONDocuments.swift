import Tracking

/// `aircraft.json` and `receiver.json` rendered from the live tracker when asked: what the
/// publisher writes into `--json-dir` and what the web server serves from memory under
/// `/data`, so both always agree.
package struct AircraftJSONDocuments: Sendable {
    private let tracker: LiveTracker
    private let signals: SignalLevels
    private let version: String
    private let refreshMilliseconds: Int

    /// Documents of `tracker`, with signal levels from `signals`; `refreshMilliseconds` tells
    /// readers how often the documents change.
    package init(tracker: LiveTracker, signals: SignalLevels, version: String, refreshMilliseconds: Int = 1000) {
        self.tracker = tracker
        self.signals = signals
        self.version = version
        self.refreshMilliseconds = refreshMilliseconds
    }

    /// `aircraft.json` now.
    package func aircraftJSON() -> String {
        let snapshot = tracker.snapshot()
        let levels = signals.levels(keeping: snapshot.aircraft.map(\.key))
        return AircraftJSONWriter.aircraftJSON(
            now: snapshot.time, messages: tracker.counters.frames,
            aircraft: snapshot.aircraft, rssi: levels, receiver: tracker.receiver)
    }

    /// `receiver.json`.
    package func receiverJSON() -> String {
        AircraftJSONWriter.receiverJSON(
            version: version, refreshMilliseconds: refreshMilliseconds,
            receiver: tracker.receiver)
    }
}
