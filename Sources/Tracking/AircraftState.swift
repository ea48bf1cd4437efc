import Identity
import ModeS

/// Where a piece of aircraft information came from.
package enum DataSource: String, Sendable, Equatable, Codable, Comparable {
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
    package var directness: Int {
        switch self {
        case .adsb: 4
        case .mlat: 3
        case .modeS: 2
        case .opensky: 1
        }
    }

    /// Less direct sources order first.
    package static func < (a: DataSource, b: DataSource) -> Bool { a.directness < b.directness }

    /// The address type of a state that comes whole from this source (OpenSky's is `other`).
    package var addressType: AddressType {
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
package struct AircraftState: Sendable, Equatable {
    /// The 24-bit ICAO address.
    package var icao: UInt32
    /// Callsign, trailing blanks removed.
    package var callsign: String?
    /// Emitter category, e.g. "A3".
    package var category: String?
    /// Origin, stops and destination for its callsign: the offline route when it is plausible
    /// for where the aircraft is, else the route service's; set on snapshots by
    /// `LiveTracker`, never by a frame.
    package var route: FlightRoute?
    /// Who it is (registration, type, operator, class…), from the identity data; set on
    /// snapshots by `LiveTracker`, never by a frame.
    package var identity: AircraftIdentity?
    /// Mode A code, four octal digits.
    package var squawk: String?
    /// Last known position.
    package var position: GeoPoint?
    /// Pressure altitude in feet.
    package var altitudeBaroFt: Int?
    /// GNSS height in feet.
    package var altitudeGeoFt: Int?
    /// GNSS height minus pressure altitude in feet, from the latest velocity message.
    package var geoMinusBaroFt: Int?
    /// Ground speed in knots.
    package var groundSpeedKt: Double?
    /// Track over ground, degrees from true north.
    package var trackDeg: Double?
    /// Vertical rate in feet per minute, positive up: the latest of `baroRateFpm` and
    /// `geomRateFpm`.
    package var verticalRateFpm: Int?
    /// Rate of change of the pressure altitude, ft/min.
    package var baroRateFpm: Int?
    /// Rate of change of the GNSS (or inertial) height, ft/min.
    package var geomRateFpm: Int?
    /// On the ground, when known.
    package var onGround: Bool?
    /// Emergency state from ADS-B (0 none).
    package var emergency: Int?

    /// Indicated airspeed, knots.
    package var indicatedAirspeedKt: Int?
    /// True airspeed, knots.
    package var trueAirspeedKt: Int?
    /// Mach number.
    package var mach: Double?
    /// Heading, degrees clockwise from magnetic north.
    package var magneticHeadingDeg: Double?
    /// Heading, degrees clockwise from true north.
    package var trueHeadingDeg: Double?
    /// Roll angle, degrees, negative for a left bank.
    package var rollDeg: Double?
    /// Rate of change of the track, degrees per second.
    package var trackRateDegPerS: Double?

    /// Altimeter setting, hPa.
    package var navQNHHpa: Double?
    /// Altitude selected on the mode control panel / flight control unit, feet.
    package var navAltitudeMCPFt: Int?
    /// Altitude selected in the flight management system, feet.
    package var navAltitudeFMSFt: Int?
    /// Selected heading, degrees.
    package var navHeadingDeg: Double?
    /// Engaged automation modes.
    package var navModes: NavigationModes?

    /// Navigation integrity category of the latest position.
    package var nic: Int?
    /// Radius of containment of the latest position, metres.
    package var radiusOfContainmentM: Int?
    /// ADS-B version (0, 1 or 2).
    package var adsbVersion: Int?
    /// NIC supplement A, from the operational status (refines `nic` of later positions).
    package var nicSupplementA: Bool?
    /// NIC baro: 1 when the pressure altitude is cross-checked.
    package var nicBaro: Int?
    /// Navigation accuracy category for position.
    package var nacP: Int?
    /// Navigation accuracy category for velocity.
    package var nacV: Int?
    /// Source integrity level.
    package var sil: Int?
    /// Whether the SIL is a probability per sample (true) or per hour (false).
    package var silPerSample: Bool?
    /// Geometric vertical accuracy.
    package var gva: Int?
    /// System design assurance.
    package var sda: Int?
    /// Whether headings from this aircraft's ADS-B are true (true) or magnetic (false).
    package var headingReferenceTrue: Bool?
    /// Flight status alert bit (the squawk was changed).
    package var alert: Bool?
    /// Flight status special position identification bit (ident pressed).
    package var spi: Bool?

    /// When anything was last heard from the aircraft (seconds, the tracker's clock).
    package var lastSeen: Double
    /// When `position` was last updated.
    package var positionTime: Double?
    /// The most direct source heard recently (see `Tracker.sourceTimeout`): an ADS-B
    /// aircraft stays ADS-B while it also answers Mode S interrogations.
    package var source: DataSource
    /// When `source` was last heard.
    package var sourceTime: Double
    /// The kind of address and the most direct way it was heard recently (aircraft.json's
    /// `type`), moving towards less direct kinds only after `Tracker.sourceTimeout`.
    package var addressType: AddressType
    /// When `addressType` was last heard.
    package var addressTypeTime: Double
    /// Messages received from this aircraft.
    package var messageCount: Int
    /// Where each field's latest value came from (aircraft.json lists the multilaterated and
    /// the TIS-B ones).
    package var fieldSources = FieldSources()
    /// The level of the messages received from this aircraft here, multilateration results
    /// aside (they were computed, not received).
    package var signal = SignalHistory()

    /// A state that knows only the address.
    package init(icao: UInt32, lastSeen: Double, source: DataSource, addressType: AddressType? = nil) {
        self.icao = icao
        self.lastSeen = lastSeen
        self.source = source
        self.sourceTime = lastSeen
        self.addressType = addressType ?? source.addressType
        self.addressTypeTime = lastSeen
        self.messageCount = 0
    }

    /// The address as six lower-case hex digits.
    package var icaoHex: String { Message.hex(address: icao) }

    /// The tracker's key: the address, with bit 24 set when it is not an ICAO address (the
    /// same 24 bits from a transponder are another aircraft).
    package var key: UInt32 { Self.key(icao: icao, isICAO: addressType.isICAO) }

    /// The key of `icao` as an ICAO address or not.
    package static func key(icao: UInt32, isICAO: Bool) -> UInt32 { isICAO ? icao : icao | 1 << 24 }

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
    package func age(at now: Double) -> Double { now - lastSeen }

    /// Whether the position is more than `Tracker.staleAfter` from `now`, either side (see
    /// `Tracker.expire`).
    package func positionIsStale(at now: Double) -> Bool {
        guard let positionTime else { return true }
        return abs(now - positionTime) > Tracker.staleAfter
    }
}
