import ModeS

/// Keeps one `AircraftState` per ICAO address, merged from decoded messages (and, from other
/// sources, whole state updates such as OpenSky state vectors).
///
/// Positions come from its `PositionResolver`, which pairs CPR frames per aircraft. Aircraft
/// not heard for `expireAfter` seconds are dropped; positions older than `staleAfter` are
/// reported as stale. Not thread-safe: one owner feeds it and takes snapshots.
public struct Tracker: Sendable {
    /// Seconds without any message after which an aircraft is forgotten.
    public static let expireAfter = 60.0
    /// Seconds after which a position is stale.
    public static let staleAfter = 15.0
    /// Seconds a more direct source keeps its claim on an aircraft against less direct ones
    /// (an ADS-B aircraft answering Mode S interrogations stays ADS-B).
    public static let sourceTimeout = 15.0

    private var aircraft: [UInt32: AircraftState] = [:]
    private var resolver: PositionResolver
    /// Messages merged so far.
    public private(set) var messageCount = 0

    /// A tracker for a receiver at `receiver` (used for CPR references and range checks).
    public init(receiver: GeoPoint? = nil, maxRangeKm: Double = 500) {
        resolver = PositionResolver(receiver: receiver, maxRangeKm: maxRangeKm)
    }

    /// Merges one decoded message received at `time` (seconds): the message with its position
    /// resolved, and the aircraft's state after it. Messages whose parity failed
    /// (`crcOK == false`) are ignored (nil). A `multilaterated` message is a result a
    /// multilateration server sent back: its source is `.mlat`, and the fields it sets are
    /// marked as such.
    @discardableResult
    public mutating func merge(_ message: Message, at time: Double, multilaterated: Bool = false) -> TrackUpdate? {
        guard message.crcOK != false else { return nil }
        var message = message
        resolver.resolve(&message, time: time)
        let source: DataSource = multilaterated ? .mlat : message.df == 17 || message.df == 18 ? .adsb : .modeS
        var state = aircraft[message.icao] ?? AircraftState(icao: message.icao, lastSeen: time, source: source)
        state.lastSeen = time
        state.hear(from: source, at: time, timeout: Self.sourceTimeout)
        state.messageCount += 1
        messageCount += 1
        if let callsign = message.callsign, !callsign.isEmpty { state.callsign = callsign }
        if let category = message.category { state.category = category }
        if let squawk = message.squawk { state.squawk = squawk }
        if let emergency = message.emergency { state.emergency = emergency }
        if let onGround = message.onGround { state.onGround = onGround }
        if let altitude = message.altitudeBaroFt {
            state.altitudeBaroFt = altitude
            state.mlatFields.set(.altitude, multilaterated: multilaterated)
        }
        if let altitude = message.altitudeGeoFt { state.altitudeGeoFt = altitude }
        if let difference = message.geoMinusBaroFt, let baro = state.altitudeBaroFt {
            state.altitudeGeoFt = baro + difference
        }
        if let latitude = message.latitude, let longitude = message.longitude {
            state.position = GeoPoint(latitude: latitude, longitude: longitude)
            state.positionTime = time
            state.mlatFields.set(.position, multilaterated: multilaterated)
        }
        if let speed = message.groundSpeedKt, message.df == 17 || message.df == 18 || state.groundSpeedKt == nil {
            state.groundSpeedKt = speed
            state.mlatFields.set(.groundSpeed, multilaterated: multilaterated)
        }
        if let track = message.trackDeg, message.df == 17 || message.df == 18 || state.trackDeg == nil {
            state.trackDeg = track
            state.mlatFields.set(.track, multilaterated: multilaterated)
        }
        if let rate = message.verticalRateFpm {
            state.verticalRateFpm = rate
            state.mlatFields.set(.verticalRate, multilaterated: multilaterated)
        }
        aircraft[message.icao] = state
        return TrackUpdate(message: message, aircraft: state)
    }

    /// Replaces what is known about an aircraft with a complete state from another source
    /// (such as an OpenSky state vector), keeping fields the update does not carry.
    public mutating func merge(_ update: AircraftState) {
        var state = aircraft[update.icao] ?? update
        state.lastSeen = max(state.lastSeen, update.lastSeen)
        state.hear(from: update.source, at: update.lastSeen, timeout: Self.sourceTimeout)
        state.messageCount += 1
        messageCount += 1
        state.callsign = update.callsign ?? state.callsign
        state.category = update.category ?? state.category
        state.squawk = update.squawk ?? state.squawk
        if let position = update.position {
            state.position = position
            state.positionTime = update.positionTime ?? update.lastSeen
        }
        state.altitudeBaroFt = update.altitudeBaroFt ?? state.altitudeBaroFt
        state.altitudeGeoFt = update.altitudeGeoFt ?? state.altitudeGeoFt
        state.groundSpeedKt = update.groundSpeedKt ?? state.groundSpeedKt
        state.trackDeg = update.trackDeg ?? state.trackDeg
        state.verticalRateFpm = update.verticalRateFpm ?? state.verticalRateFpm
        state.onGround = update.onGround ?? state.onGround
        aircraft[update.icao] = state
    }

    /// Drops aircraft not heard for `expireAfter` seconds as of `now`.
    public mutating func expire(at now: Double) {
        aircraft = aircraft.filter { now - $0.value.lastSeen <= Self.expireAfter }
    }

    /// Every aircraft heard within `expireAfter` seconds of `now`, sorted by address.
    public func snapshot(at now: Double) -> [AircraftState] {
        aircraft.values.filter { now - $0.lastSeen <= Self.expireAfter }.sorted { $0.icao < $1.icao }
    }

    /// The state of one aircraft, if known.
    public func state(of icao: UInt32) -> AircraftState? { aircraft[icao] }

    /// How many aircraft are currently tracked.
    public var count: Int { aircraft.count }
}
