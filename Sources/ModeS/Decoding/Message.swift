/// The decoded content of one Mode S frame: every field the frame carried, each nil when the
/// frame did not carry it. Positions (`latitude`, `longitude`) are filled in later by a
/// `PositionResolver`, because one CPR frame alone does not fix a position.
public struct Message: Sendable, Equatable {
    /// Downlink format (0–24).
    public var df: Int
    /// The transponder's 24-bit address.
    public var icao: UInt32
    /// True when the parity proved the frame genuine (see `Frame.parityVerified`); false when
    /// it failed and could not be repaired; nil for address/parity frames taken on trust.
    public var crcOK: Bool?
    /// Bits repaired by error correction.
    public var correctedBits: Int

    /// ADS-B type code (DF17/18), 1–31.
    public var typeCode: Int?
    /// Capability (DF11/17) or control field (DF18), bits 6–8.
    public var capability: Int?
    /// Flight status (DF4/5/20/21).
    public var flightStatus: Int?
    /// Interrogator identifier from a DF11 parity overlay (0 when none).
    public var interrogator: Int?
    /// DF18 TIS-B and ADS-R: the IMF bit, set when the address is not an ICAO address (an
    /// anonymous address or a ground station's track file number).
    public var nonICAOAddress: Bool?

    /// Callsign with trailing spaces removed.
    public var callsign: String?
    /// Emitter category, e.g. "A3" (set A–D from the type code, number from the CA field).
    public var category: String?
    /// Mode A identity code, four octal digits.
    public var squawk: String?
    /// Pressure altitude in feet.
    public var altitudeBaroFt: Int?
    /// GNSS (geometric) height in feet.
    public var altitudeGeoFt: Int?
    /// True when the altitude field was sent in metric units (then converted to feet).
    public var altitudeMetric: Bool?
    /// Geometric minus barometric altitude (feet), from the velocity message.
    public var geoMinusBaroFt: Int?
    /// On the ground (from the flight status, capability or a surface position).
    public var onGround: Bool?
    /// Alert bit of the flight status (squawk changed).
    public var alert: Bool?
    /// Special position identification (ident) active.
    public var spi: Bool?

    /// Raw CPR fields of a position message.
    public var cpr: CPRFrame?
    /// Resolved latitude in degrees (filled by a `PositionResolver`).
    public var latitude: Double?
    /// Resolved longitude in degrees (filled by a `PositionResolver`).
    public var longitude: Double?
    /// Navigation uncertainty / integrity category implied by the type code.
    public var nic: Int?
    /// NIC supplement B of an airborne position (ME bit 8; the single antenna flag before
    /// ADS-B version 2): with supplement A it refines the NIC of type codes 11, 13 and 16.
    public var nicSupplementB: Bool?

    /// Ground speed in knots.
    public var groundSpeedKt: Double?
    /// Track over ground in degrees from true north.
    public var trackDeg: Double?
    /// Indicated or true airspeed in knots.
    public var airspeedKt: Int?
    /// Which airspeed `airspeedKt` is.
    public var airspeedType: AirspeedType?
    /// Heading in degrees (magnetic or true, see `headingIsTrue`).
    public var headingDeg: Double?
    /// Vertical rate in feet per minute, positive up.
    public var verticalRateFpm: Int?
    /// Whether the vertical rate comes from the barometer or from GNSS.
    public var verticalRateSource: AltitudeSource?
    /// Velocity subtype (1–4) of a type code 19 message.
    public var velocitySubtype: Int?
    /// Navigation accuracy category for velocity (type code 19).
    public var nacV: Int?

    /// Emergency state of a type code 28 message (0 = none).
    public var emergency: Int?
    /// Selected altitude (MCP/FCU or FMS) in feet.
    public var selectedAltitudeFt: Int?
    /// Which system set `selectedAltitudeFt`: "mcp" or "fms".
    public var selectedAltitudeSource: String?
    /// Barometric pressure setting in hPa.
    public var baroSettingHpa: Double?
    /// Selected heading in degrees.
    public var selectedHeadingDeg: Double?
    /// FMS selected altitude in feet when a BDS 4,0 report carries it beside the MCP/FCU one
    /// (then `selectedAltitudeFt` holds the latter).
    public var fmsSelectedAltitudeFt: Int?
    /// Autopilot engaged, from target state (TC29) or BDS 4,0.
    public var autopilot: Bool?
    /// Engaged automation modes (TC29, BDS 4,0).
    public var navModes: NavigationModes?
    /// Navigation accuracy category for position.
    public var nacP: Int?
    /// Source integrity level.
    public var sil: Int?
    /// SIL supplement: whether the SIL's probability is per sample (true) or per hour (false).
    public var silPerSample: Bool?
    /// ADS-B version number (operational status, TC31).
    public var adsbVersion: Int?
    /// NIC supplement A (operational status, TC31).
    public var nicSupplementA: Bool?
    /// NIC baro: 1 when the barometric altitude is cross-checked against another source
    /// (operational status, target state).
    public var nicBaro: Int?
    /// Geometric vertical accuracy (operational status, airborne).
    public var gva: Int?
    /// System design assurance (operational status, ADS-B version 2).
    public var sda: Int?
    /// Horizontal reference direction (operational status): headings the aircraft reports
    /// are true (true) or magnetic (false).
    public var headingReferenceTrue: Bool?

    /// Comm-B register identified in a DF20/21 reply, e.g. "4,0".
    public var bds: String?
    /// Roll angle in degrees, positive right wing down (BDS 5,0).
    public var rollDeg: Double?
    /// Track angle rate in degrees per second (BDS 5,0).
    public var trackRateDegPerS: Double?
    /// True airspeed in knots (BDS 5,0).
    public var trueAirspeedKt: Int?
    /// Indicated airspeed in knots (BDS 6,0).
    public var indicatedAirspeedKt: Int?
    /// Mach number (BDS 6,0).
    public var mach: Double?
    /// Magnetic heading in degrees (BDS 6,0).
    public var magneticHeadingDeg: Double?
    /// Barometric altitude rate in feet per minute (BDS 6,0).
    public var baroVerticalRateFpm: Int?
    /// Inertial vertical rate in feet per minute (BDS 6,0).
    public var inertialVerticalRateFpm: Int?

    /// A message with only the always-present fields set.
    public init(df: Int, icao: UInt32, crcOK: Bool?, correctedBits: Int = 0) {
        self.df = df
        self.icao = icao
        self.crcOK = crcOK
        self.correctedBits = correctedBits
    }

    /// The address as six lower-case hex digits.
    public var icaoHex: String { Self.hex(address: icao) }

    /// A 24-bit address as six lower-case hex digits, the way every output writes it.
    public static func hex(address: UInt32) -> String {
        let digits = String(address, radix: 16)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}

/// Which airspeed a velocity message reports.
public enum AirspeedType: String, Sendable, Equatable {
    /// Indicated airspeed.
    case ias = "IAS"
    /// True airspeed.
    case tas = "TAS"
}

/// Where a vertical rate or an altitude comes from.
public enum AltitudeSource: String, Sendable, Equatable {
    /// The barometric (pressure) altimeter.
    case baro
    /// Satellite navigation.
    case gnss
}
