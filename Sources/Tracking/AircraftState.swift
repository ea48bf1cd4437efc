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

    /// The address type of a state that comes whole from this source (OpenSky's is `other`).
    public var addressType: AddressType {
        switch self {
        case .adsb: .adsbICAO
        case .mlat: .mlat
        case .modeS: .modeS
        case .opensky: .other
        }
    }
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
    /// Origin and destination for its callsign, when a route service knows them; set on
    /// snapshots by `LiveTracker`, never by a frame.
    public var route: FlightRoute?
    /// Mode A code, four octal digits.
    public var squawk: String?
    /// Last known position.
    public var position: GeoPoint?
    /// Pressure altitude in feet.
    public var altitudeBaroFt: Int?
    /// GNSS height in feet.
    public var altitudeGeoFt: Int?
    /// GNSS height minus pressure altitude in feet, from the latest velocity message.
    public var geoMinusBaroFt: Int?
    /// Ground speed in knots.
    public var groundSpeedKt: Double?
    /// Track over ground, degrees from true north.
    public var trackDeg: Double?
    /// Vertical rate in feet per minute, positive up: the latest of `baroRateFpm` and
    /// `geomRateFpm`.
    public var verticalRateFpm: Int?
    /// Rate of change of the pressure altitude, ft/min.
    public var baroRateFpm: Int?
    /// Rate of change of the GNSS (or inertial) height, ft/min.
    public var geomRateFpm: Int?
    /// On the ground, when known.
    public var onGround: Bool?
    /// Emergency state from ADS-B (0 none).
    public var emergency: Int?

    /// Indicated airspeed, knots.
    public var indicatedAirspeedKt: Int?
    /// True airspeed, knots.
    public var trueAirspeedKt: Int?
    /// Mach number.
    public var mach: Double?
    /// Heading, degrees clockwise from magnetic north.
    public var magneticHeadingDeg: Double?
    /// Heading, degrees clockwise from true north.
    public var trueHeadingDeg: Double?
    /// Roll angle, degrees, negative for a left bank.
    public var rollDeg: Double?
    /// Rate of change of the track, degrees per second.
    public var trackRateDegPerS: Double?

    /// Altimeter setting, hPa.
    public var navQNHHpa: Double?
    /// Altitude selected on the mode control panel / flight control unit, feet.
    public var navAltitudeMCPFt: Int?
    /// Altitude selected in the flight management system, feet.
    public var navAltitudeFMSFt: Int?
    /// Selected heading, degrees.
    public var navHeadingDeg: Double?
    /// Engaged automation modes.
    public var navModes: NavigationModes?

    /// Navigation integrity category of the latest position.
    public var nic: Int?
    /// Radius of containment of the latest position, metres.
    public var radiusOfContainmentM: Int?
    /// ADS-B version (0, 1 or 2).
    public var adsbVersion: Int?
    /// NIC supplement A, from the operational status (refines `nic` of later positions).
    public var nicSupplementA: Bool?
    /// NIC baro: 1 when the pressure altitude is cross-checked.
    public var nicBaro: Int?
    /// Navigation accuracy category for position.
    public var nacP: Int?
    /// Navigation accuracy category for velocity.
    public var nacV: Int?
    /// Source integrity level.
    public var sil: Int?
    /// Whether the SIL is a probability per sample (true) or per hour (false).
    public var silPerSample: Bool?
    /// Geometric vertical accuracy.
    public var gva: Int?
    /// System design assurance.
    public var sda: Int?
    /// Whether headings from this aircraft's ADS-B are true (true) or magnetic (false).
    public var headingReferenceTrue: Bool?
    /// Flight status alert bit (the squawk was changed).
    public var alert: Bool?
    /// Flight status special position identification bit (ident pressed).
    public var spi: Bool?

    /// When anything was last heard from the aircraft (seconds, the tracker's clock).
    public var lastSeen: Double
    /// When `position` was last updated.
    public var positionTime: Double?
    /// The most direct source heard recently (see `Tracker.sourceTimeout`): an ADS-B
    /// aircraft stays ADS-B while it also answers Mode S interrogations.
    public var source: DataSource
    /// When `source` was last heard.
    public var sourceTime: Double
    /// The kind of address and the most direct way it was heard recently (aircraft.json's
    /// `type`), moving towards less direct kinds only after `Tracker.sourceTimeout`.
    public var addressType: AddressType
    /// When `addressType` was last heard.
    public var addressTypeTime: Double
    /// Messages received from this aircraft.
    public var messageCount: Int
    /// Where each field's latest value came from (aircraft.json lists the multilaterated and
    /// the TIS-B ones).
    public var fieldSources = FieldSources()

    /// A state that knows only the address.
    public init(icao: UInt32, lastSeen: Double, source: DataSource, addressType: AddressType? = nil) {
        self.icao = icao
        self.lastSeen = lastSeen
        self.source = source
        self.sourceTime = lastSeen
        self.addressType = addressType ?? source.addressType
        self.addressTypeTime = lastSeen
        self.messageCount = 0
    }

    /// The address as six lower-case hex digits.
    public var icaoHex: String { Message.hex(address: icao) }

    /// The tracker's key: the address, with bit 24 set when it is not an ICAO address (the
    /// same 24 bits from a transponder are another aircraft).
    public var key: UInt32 { Self.key(icao: icao, isICAO: addressType.isICAO) }

    /// The key of `icao` as an ICAO address or not.
    public static func key(icao: UInt32, isICAO: Bool) -> UInt32 { isICAO ? icao : icao | 1 << 24 }

    /// Takes `heard` as the aircraft's source at `time` when it is at least as direct as the
    /// current one, or when the current one has not been heard for `timeout` seconds; the
    /// same for the address type `type`.
    mutating func hear(from heard: DataSource, as type: AddressType, at time: Double, timeout: Double) {
        if heard >= source || time - sourceTime > timeout {
            source = heard
            sourceTime = max(sourceTime, time)
        }
        if type <= addressType || time - addressTypeTime > timeout {
            addressType = type
            addressTypeTime = max(addressTypeTime, time)
        }
    }

    /// Seconds since the aircraft was last heard, as of `now`.
    public func age(at now: Double) -> Double { now - lastSeen }

    /// Whether the position is more than `Tracker.staleAfter` from `now`, either side (see
    /// `Tracker.expire`).
    public func positionIsStale(at now: Double) -> Bool {
        guard let positionTime else { return true }
        return abs(now - positionTime) > Tracker.staleAfter
    }
}
