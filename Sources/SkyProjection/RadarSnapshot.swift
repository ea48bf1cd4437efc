import Tracking

/// What the feed needs from the rest of the daemon at each frame: where the receiver is,
/// which source is feeding the tracker, and the tracker's aircraft.
package struct RadarSnapshot: Sendable {
    /// The observer the sky is projected for; nil when the receiver position is unknown (the
    /// feed then carries positions without projection fields).
    package var observer: Observer?
    /// Name of the current data source, e.g. "rtl-sdr", "replay", "beast", "opensky", "none".
    package var source: String
    /// The current time on the tracker's clock (the clock of `AircraftState.lastSeen`), so
    /// that ages such as `seen_s` are measured consistently.
    package var now: Double
    /// The tracked aircraft.
    package var aircraft: [AircraftState]

    /// A snapshot from its parts.
    package init(observer: Observer?, source: String, now: Double, aircraft: [AircraftState]) {
        self.observer = observer
        self.source = source
        self.now = now
        self.aircraft = aircraft
    }
}

/// Where the feed server takes its aircraft from: the daemon plugs its tracker in, tests plug
/// in fixed or scripted skies.
package protocol RadarSnapshotProvider: Sendable {
    /// The current picture; called once per frame interval.
    func radarSnapshot() async -> RadarSnapshot
}

/// A provider backed by a closure.
package struct ClosureSnapshotProvider: RadarSnapshotProvider {
    private let body: @Sendable () async -> RadarSnapshot

    /// A provider that calls `body` for every frame.
    package init(_ body: @escaping @Sendable () async -> RadarSnapshot) {
        self.body = body
    }

    /// The closure's answer.
    package func radarSnapshot() async -> RadarSnapshot { await body() }
}
