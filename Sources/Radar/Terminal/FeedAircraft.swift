/// One aircraft of a feed frame, as a radar client reads it: the fields the terminal radar
/// draws and lists. Unknown values (`null` on the wire) are nil.
public struct FeedAircraft: Sendable, Equatable {
    /// ICAO 24-bit address, six lower-case hex digits.
    public var icao: String
    /// Flight identification, blanks removed.
    public var callsign: String?
    /// Pressure altitude in feet.
    public var altitudeBaroFt: Double?
    /// Geometric (GNSS) height in feet.
    public var altitudeGeoFt: Double?
    /// Speed over ground in knots.
    public var groundSpeedKt: Double?
    /// Whether the aircraft reports being on the ground.
    public var onGround: Bool?
    /// Whether its position is old; drawn faded.
    public var stale: Bool
    /// Distance along the surface from the receiver, km.
    public var groundKm: Double?
    /// Direction relative to where the radar points, degrees in [0, 360).
    public var bearingDeg: Double?
    /// Position on the radar as a fraction of the radius, x to the right.
    public var x: Double?
    /// Position on the radar as a fraction of the radius, y up (towards the heading).
    public var y: Double?
    /// Which way the icon points on the radar, degrees clockwise from up.
    public var rotationDeg: Double?
    /// Icon size, 0.7 (high) to 2 (low).
    public var scale: Double?

    /// An aircraft with only its address known; the other fields default to unknown.
    public init(icao: String, callsign: String? = nil, altitudeBaroFt: Double? = nil, altitudeGeoFt: Double? = nil,
                groundSpeedKt: Double? = nil, onGround: Bool? = nil, stale: Bool = false, groundKm: Double? = nil,
                bearingDeg: Double? = nil, x: Double? = nil, y: Double? = nil, rotationDeg: Double? = nil,
                scale: Double? = nil) {
        self.icao = icao
        self.callsign = callsign
        self.altitudeBaroFt = altitudeBaroFt
        self.altitudeGeoFt = altitudeGeoFt
        self.groundSpeedKt = groundSpeedKt
        self.onGround = onGround
        self.stale = stale
        self.groundKm = groundKm
        self.bearingDeg = bearingDeg
        self.x = x
        self.y = y
        self.rotationDeg = rotationDeg
        self.scale = scale
    }

    /// What to call it on screen: the callsign when known, else the ICAO address in upper case.
    public var label: String {
        if let callsign, !callsign.isEmpty { return callsign }
        return icao.uppercased()
    }

    /// The altitude to show and filter by: barometric, else geometric.
    public var altitudeFt: Double? { altitudeBaroFt ?? altitudeGeoFt }
}
