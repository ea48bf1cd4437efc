import ModeS

/// Keeps one `AircraftState` per ICAO address, merged from decoded messages (and, from other
/// sources, whole state updates such as OpenSky state vectors).
///
/// Positions come from its `PositionResolver`, which pairs CPR frames per aircraft. Aircraft
/// not heard for `expireAfter` seconds are dropped; positions older than `staleAfter` are
/// reported as stale. Not thread-safe: one owner feeds it and takes snapshots.
package struct Tracker: Sendable {
    /// Seconds without any message after which an aircraft is forgotten.
    package static let expireAfter = 60.0
    /// Seconds after which a position is stale.
    package static let staleAfter = 15.0
    /// Seconds a more direct source keeps its claim on an aircraft, and on each of its fields,
    /// against less direct ones (an ADS-B aircraft answering Mode S interrogations stays
    /// ADS-B, and keeps its ADS-B ground speed against a Comm-B one).
    package static let sourceTimeout = 15.0
    /// The most aircraft tracked at once unless told otherwise: several times what a whole
    /// network hears (the world has about 15,000 aircraft aloft at its busiest), so that a
    /// peer sending valid frames from ever new made-up addresses cannot take all memory.
    /// Reaching it drops the tenth of the aircraft heard longest ago (`Counts.tracksDropped`).
    package static let defaultMaximumAircraft = 50_000

    /// What the tracker has counted since it started, for stats.json.
    package struct Counts: Sendable, Equatable {
        /// Aircraft tracks created.
        package var tracks = 0
        /// Tracks forgotten after a single message (mostly frames with a wrong address).
        package var singleMessageTracks = 0
        /// Surface position frames (CPR).
        package var surfacePositionFrames = 0
        /// Airborne position frames (CPR).
        package var airbornePositionFrames = 0
        /// Positions resolved from them.
        package var positions = 0
        /// Tracks dropped, the least recently heard first, to stay within `maximumAircraft`.
        package var tracksDropped = 0

        /// Nothing counted.
        package init() {}
    }

    private var aircraft: [UInt32: AircraftState] = [:]
    private var resolver: PositionResolver
    /// Messages merged so far.
    package private(set) var messageCount = 0
    /// Tracks and positions counted so far.
    package private(set) var counts = Counts()

    /// The most aircraft this tracker holds (see `defaultMaximumAircraft`).
    package let maximumAircraft: Int

    /// A tracker for a receiver at `receiver` (used for CPR references and range checks),
    /// holding at most `maximumAircraft` aircraft.
    package init(
        receiver: GeoPoint? = nil, maxRangeKm: Double = 500, maximumAircraft: Int = Tracker.defaultMaximumAircraft
    ) {
        resolver = PositionResolver(receiver: receiver, maxRangeKm: maxRangeKm)
        self.maximumAircraft = max(10, maximumAircraft)
    }

    /// Merges one decoded message received at `time` (seconds): the message with its position
    /// resolved, and the aircraft's state after it. Messages whose parity failed
    /// (`crcOK == false`) are ignored (nil). A `multilaterated` message is a result a
    /// multilateration server sent back: its source is `.mlat`, and the fields it sets are
    /// marked as such.
    ///
    /// Each field takes the message's value unless a more direct source set it within
    /// `sourceTimeout` (see `FieldSources`).
    @discardableResult
    package mutating func merge(_ message: Message, at time: Double, multilaterated: Bool = false) -> TrackUpdate? {
        merge(message, at: time, multilaterated: multilaterated, heardAt: resolver.receiver)
    }

    /// Merges one message heard by a receiver at `receiver` rather than this tracker's own
    /// (another receiver of a network; nil when its position is unknown): its CPR frames are
    /// decoded locally against, and range-checked from, that position. `signalLevel` is the
    /// frame's level in dBFS (not a number: none measured). With `reporting` false the update
    /// is not returned (nil): it holds a copy of the aircraft's whole state, which costs a few
    /// percent of a live receiver's time when nothing reads it.
    @discardableResult
    package mutating func merge(
        _ message: Message, at time: Double, multilaterated: Bool = false,
        heardAt receiver: GeoPoint?, signalLevel: Double = .nan, reporting: Bool = true
    ) -> TrackUpdate? {
        guard message.crcOK != false else { return nil }
        var message = message
        let source: DataSource = multilaterated ? .mlat : message.df == 17 || message.df == 18 ? .adsb : .modeS
        let type = AddressType(of: message, multilaterated: multilaterated)
        let key = AircraftState.key(icao: message.icao, isICAO: type.isICAO)
        resolver.resolve(&message, time: time, heardAt: receiver, key: key)
        // An aircraft's state is a large value: it is looked up by index and changed in
        // place (`aircraft[key]` would copy it out, even just to compare it with nil), and a
        // new one is only made for a new aircraft.
        let index: [UInt32: AircraftState].Index
        if let known = aircraft.index(forKey: key) {
            index = known
        } else {
            makeRoom()
            counts.tracks += 1
            aircraft[key] = AircraftState(icao: message.icao, lastSeen: time, source: source, addressType: type)
            index = aircraft.index(forKey: key)!
        }
        if let cpr = message.cpr {
            if cpr.isSurface { counts.surfacePositionFrames += 1 } else { counts.airbornePositionFrames += 1 }
        }
        if message.latitude != nil { counts.positions += 1 }
        Self.merge(message, as: type, from: source, at: time, into: &aircraft.values[index])
        if !multilaterated { aircraft.values[index].signal.record(dBFS: signalLevel) }
        messageCount += 1
        return reporting ? TrackUpdate(message: message, aircraft: aircraft.values[index]) : nil
    }

    /// Merges `message`, heard as `type` from `source` at `time`, into `state` in place.
    private static func merge(
        _ message: Message, as type: AddressType, from source: DataSource, at time: Double,
        into state: inout AircraftState
    ) {
        state.lastSeen = time
        state.hear(from: source, as: type, at: time, timeout: sourceTimeout)
        state.messageCount += 1
        MessageMerge(message: message, type: type, time: time, timeout: sourceTimeout).apply(to: &state)
    }

    /// Replaces what is known about an aircraft with a complete state from another source
    /// (such as an OpenSky state vector), keeping fields the update does not carry.
    package mutating func merge(_ update: AircraftState) {
        if aircraft[update.key] == nil {
            makeRoom()
            counts.tracks += 1
        }
        var state = aircraft[update.key] ?? update
        state.lastSeen = max(state.lastSeen, update.lastSeen)
        state.hear(from: update.source, as: update.addressType, at: update.lastSeen, timeout: Self.sourceTimeout)
        state.messageCount += 1
        messageCount += 1
        state.callsign = update.callsign ?? state.callsign
        state.category = update.category ?? state.category
        state.squawk = update.squawk ?? state.squawk
        // A position older than the one held (another source's, newer) is not taken.
        if let position = update.position, (update.positionTime ?? update.lastSeen) >= state.positionTime ?? -.infinity
        {
            state.position = position
            state.positionTime = update.positionTime ?? update.lastSeen
        }
        state.altitudeBaroFt = update.altitudeBaroFt ?? state.altitudeBaroFt
        state.altitudeGeoFt = update.altitudeGeoFt ?? state.altitudeGeoFt
        state.groundSpeedKt = update.groundSpeedKt ?? state.groundSpeedKt
        state.trackDeg = update.trackDeg ?? state.trackDeg
        state.verticalRateFpm = update.verticalRateFpm ?? state.verticalRateFpm
        // An aggregator's vertical rate is the barometric one aircraft.json has always shown.
        state.baroRateFpm = update.baroRateFpm ?? update.verticalRateFpm ?? state.baroRateFpm
        state.onGround = update.onGround ?? state.onGround
        aircraft[update.key] = state
    }

    /// Makes room for one more aircraft at `maximumAircraft`: drops the tenth heard longest
    /// ago, so that a flood of made-up addresses costs one sort per thousands of them.
    private mutating func makeRoom() {
        guard aircraft.count >= maximumAircraft else { return }
        let oldest = aircraft.values.map { ($0.lastSeen, $0.key) }.sorted { $0 < $1 }.prefix(maximumAircraft / 10)
        for (_, key) in oldest { aircraft[key] = nil }
        counts.tracksDropped += oldest.count
    }

    /// Drops aircraft not heard within `expireAfter` seconds of `now`, either side: one heard
    /// "later" than now was heard before the wall clock stepped back, and would otherwise
    /// stay on the radar as freshly heard until the clock caught up.
    package mutating func expire(at now: Double) {
        counts.singleMessageTracks += aircraft.values.count { !Self.isCurrent($0, at: now) && $0.messageCount == 1 }
        aircraft = aircraft.filter { Self.isCurrent($0.value, at: now) }
    }

    /// Every aircraft heard within `expireAfter` seconds of `now`, sorted by key (ICAO
    /// addresses first, then the others).
    package func snapshot(at now: Double) -> [AircraftState] {
        aircraft.values.filter { Self.isCurrent($0, at: now) }.sorted { $0.key < $1.key }
    }

    /// Whether `state` was heard within `expireAfter` seconds of `now`, either side.
    private static func isCurrent(_ state: AircraftState, at now: Double) -> Bool {
        abs(now - state.lastSeen) <= expireAfter
    }

    /// The state of one aircraft by its key (`AircraftState.key`: the ICAO address itself for
    /// an ICAO address), if known.
    package func state(of key: UInt32) -> AircraftState? { aircraft[key] }

    /// How many aircraft are currently tracked.
    package var count: Int { aircraft.count }
}
