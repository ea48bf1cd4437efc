import ModeS

/// Where a piece of aircraft information came from.
public enum DataSource: String, Sendable, Equatable, Codable, Comparable {
    /// ADS-B extended squitter (DF17/18) from our own receiver.
    case adsb
    /// Positions and movement worked out by a multilateration server from several
    /// receivers' timestamps, and sent back to us marked as such.
    case mlat
    /// Other Mode S replies (DF0/4/5/11/16/20/21) from our own receiver.
    case modeS = "mode-s"
    /// The OpenSky Network REST API.
    case opensky

    /// How directly the source hears the aircraft: its own ADS-B position reports first,
    /// then positions multilaterated from its replies, then other replies our receiver heard,
    /// then an aggregator's state vectors.
    public var directness: Int {
        switch self {
        case .adsb: 4
        case .mlat: 3
        case .modeS: 2
        case .opensky: 1
        }
    }

    /// Less direct sources order first.
    public static func < (a: DataSource, b: DataSource) -> Bool { a.directness < b.directness }
}

/// Everything known about one aircraft, merged from all its messages: the tracker's output and
/// the input of the radar projection. A plain value, safe to hand across concurrency domains.
public struct AircraftState: Sendable, Equatable {
    /// The 24-bit ICAO address.
    public var icao: UInt32
    /// Callsign, trailing blanks removed.
    public var callsign: String?
    /// Emitter category, e.g. "A3".
    public var category: String?
    /// Mode A code, four octal digits.
    public var squawk: String?
    /// Last known position.
    public var position: GeoPoint?
    /// Pressure altitude in feet.
    public var altitudeBaroFt: Int?
    /// GNSS height in feet.
    public var altitudeGeoFt: Int?
    /// Ground speed in knots.
    public var groundSpeedKt: Double?
    /// Track over ground, degrees from true north.
    public var trackDeg: Double?
    /// Vertical rate in feet per minute, positive up.
    public var verticalRateFpm: Int?
    /// On the ground, when known.
    public var onGround: Bool?
    /// Emergency state from ADS-B (0 none).
    public var emergency: Int?

    /// When anything was last heard from the aircraft (seconds, the tracker's clock).
    public var lastSeen: Double
    /// When `position` was last updated.
    public var positionTime: Double?
    /// The most direct source heard recently (see `Tracker.sourceTimeout`): an ADS-B
    /// aircraft stays ADS-B while it also answers Mode S interrogations.
    public var source: DataSource
    /// When `source` was last heard.
    public var sourceTime: Double
    /// Messages received from this aircraft.
    public var messageCount: Int
    /// The fields whose latest value came from multilateration rather than from the
    /// aircraft's own reports (aircraft.json lists them, as readers expect).
    public var mlatFields: MLATFields = []

    /// A state that knows only the address.
    public init(icao: UInt32, lastSeen: Double, source: DataSource) {
        self.icao = icao
        self.lastSeen = lastSeen
        self.source = source
        self.sourceTime = lastSeen
        self.messageCount = 0
    }

    /// The address as six lower-case hex digits.
    public var icaoHex: String { Message.hex(address: icao) }

    /// Takes `heard` as the aircraft's source at `time` when it is at least as direct as the
    /// current one, or when the current one has not been heard for `timeout` seconds.
    mutating func hear(from heard: DataSource, at time: Double, timeout: Double) {
        if heard >= source || time - sourceTime > timeout {
            source = heard
            sourceTime = max(sourceTime, time)
        }
    }

    /// Seconds since the aircraft was last heard, as of `now`.
    public func age(at now: Double) -> Double { now - lastSeen }

    /// Whether the position is older than `Tracker.staleAfter` as of `now`.
    public func positionIsStale(at now: Double) -> Bool {
        guard let positionTime else { return true }
        return now - positionTime > Tracker.staleAfter
    }
}
