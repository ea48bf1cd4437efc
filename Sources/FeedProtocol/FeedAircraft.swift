import ModeS
import Support

/// One aircraft of a radar frame as it travels on the feed: what the tracker knows about it
/// and where it stands in the client's sky and on its radar. The server fills it from its
/// projection and writes it; clients read it back. Unknown values (`null` on the wire) are nil.
package struct FeedAircraft: Sendable, Equatable {
    /// ICAO 24-bit address, six lower-case hex digits.
    package var icao: String
    /// Flight identification, blanks removed.
    package var callsign: String?
    /// Latitude in degrees.
    package var latitude: Double?
    /// Longitude in degrees.
    package var longitude: Double?
    /// Pressure altitude in feet.
    package var altitudeBaroFt: Double?
    /// Geometric (GNSS) height in feet.
    package var altitudeGeoFt: Double?
    /// Speed over ground in knots.
    package var groundSpeedKt: Double?
    /// Track over ground, degrees from true north.
    package var trackDeg: Double?
    /// Vertical rate in feet per minute, positive up.
    package var verticalRateFpm: Double?
    /// Mode A code, four octal digits.
    package var squawk: String?
    /// Emitter category, e.g. "A3".
    package var category: String?
    /// Whether the aircraft reports being on the ground.
    package var onGround: Bool?
    /// Seconds since anything was heard from it.
    package var seenSeconds: Double?
    /// Seconds since its position was last updated.
    package var positionAgeSeconds: Double?
    /// Whether its position is old; drawn faded.
    package var stale: Bool
    /// Where its data comes from: "adsb", "mlat", "mode-s" or "opensky".
    package var source: String?
    /// Direction from the observer, degrees from true north.
    package var azimuthDeg: Double?
    /// Angle above the observer's horizon, degrees.
    package var elevationDeg: Double?
    /// Straight-line distance from the observer, km.
    package var slantKm: Double?
    /// Distance along the surface from the observer, km.
    package var groundKm: Double?
    /// Direction relative to where the radar points, degrees in [0, 360).
    package var bearingDeg: Double?
    /// Position on the radar as a fraction of the radius, x to the right.
    package var x: Double?
    /// Position on the radar as a fraction of the radius, y up (towards the heading).
    package var y: Double?
    /// Which way the icon points on the radar, degrees clockwise from up.
    package var rotationDeg: Double?
    /// Icon size, 0.7 (high) to 2 (low).
    package var scale: Double?
    /// Origin and destination: the offline route when plausible for where the aircraft is,
    /// else the route service's when one is configured.
    package var route: FeedRoute?
    /// Who it is (registration, type, operator, class…), from the identity data.
    package var identity: FeedIdentity?

    /// An aircraft with only its address known and any other fields given; the rest are unknown.
    package init(
        icao: String, callsign: String? = nil, altitudeBaroFt: Double? = nil, altitudeGeoFt: Double? = nil,
        groundSpeedKt: Double? = nil, onGround: Bool? = nil, stale: Bool = false, groundKm: Double? = nil,
        bearingDeg: Double? = nil, x: Double? = nil, y: Double? = nil, rotationDeg: Double? = nil,
        scale: Double? = nil
    ) {
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
    package var label: String {
        if let callsign, !callsign.isEmpty { return callsign }
        return icao.uppercased()
    }

    /// The altitude to show and filter by: barometric, else geometric.
    package var altitudeFt: Double? { altitudeBaroFt ?? altitudeGeoFt }

    /// The aircraft as one JSON object, every field present (`null` when unknown), each
    /// number rounded to what it is worth: 5 decimals of a degree of latitude are about a
    /// metre, 4 decimals of the radar radius a fraction of a pixel.
    package var json: String { written(.all) }

    /// The aircraft as one JSON object without the projection fields (azimuth, elevation,
    /// distances, radar position, rotation, scale): what is known of it wherever one stands,
    /// as the MQTT output publishes it.
    package var trackedJSON: String { written(.tracked) }

    /// Which of its fields an object holds, each run in wire order.
    enum Part {
        /// Every field.
        case all
        /// What the tracker knows, the route and the identity (`trackedJSON`).
        case tracked
        /// What the tracker knows and where it stands in the observer's sky: the fields
        /// before the view's own.
        case leading
        /// Where a client's radar draws it and which way its icon points (bearing, x, y,
        /// rotation): the only fields in which two views from the same place differ.
        case radar
        /// How large to draw it, its route and its identity: the fields after the view's own.
        case trailing
    }

    /// `part` of the aircraft as one JSON object.
    consuming func written(_ part: Part) -> String {
        var copy = self
        var writer = FeedFieldWriter()
        copy.visit(&writer, part)
        return writer.result
    }

    /// Every field of the aircraft, in wire order, with its key and rounding: the one list
    /// its writer and its parser follow.
    private mutating func visit<V: FeedFieldVisitor>(_ v: inout V, _ part: Part) throws(V.Failure) {
        if part == .all || part == .tracked || part == .leading {
            try v.text("icao", &icao)
            try v.text("callsign", &callsign)
            try v.number("lat", &latitude, decimals: 5)
            try v.number("lon", &longitude, decimals: 5)
            try v.number("alt_baro_ft", &altitudeBaroFt, decimals: 0)
            try v.number("alt_geo_ft", &altitudeGeoFt, decimals: 0)
            try v.number("ground_speed_kt", &groundSpeedKt, decimals: 1)
            try v.angle("track_deg", &trackDeg, decimals: 1)
            try v.number("vertical_rate_fpm", &verticalRateFpm, decimals: 0)
            try v.text("squawk", &squawk)
            try v.text("category", &category)
            try v.flag("on_ground", &onGround)
            try v.number("seen_s", &seenSeconds, decimals: 1)
            try v.number("seen_pos_s", &positionAgeSeconds, decimals: 1)
            try v.flag("stale", &stale)
            try v.text("source", &source)
        }
        if part == .all || part == .leading {
            try v.angle("azimuth_deg", &azimuthDeg, decimals: 2)
            try v.number("elevation_deg", &elevationDeg, decimals: 2)
            try v.number("slant_km", &slantKm, decimals: 2)
            try v.number("ground_km", &groundKm, decimals: 2)
        }
        if part == .all || part == .radar {
            try v.angle("bearing_deg", &bearingDeg, decimals: 2)
            try v.number("x", &x, decimals: 4)
            try v.number("y", &y, decimals: 4)
            try v.angle("rotation_deg", &rotationDeg, decimals: 1)
        }
        if part == .all || part == .trailing { try v.number("scale", &scale, decimals: 3) }
        if part == .all || part == .tracked || part == .trailing {
            try v.object("route", &route)
            try v.object("identity", &identity)
        }
    }

    /// Reads an aircraft object; an aircraft without an address is an error, unknown fields
    /// are ignored.
    init(_ fields: JSONFields) throws(FeedParseError) {
        guard let icao = try fields.string("icao") else { throw FeedParseError("aircraft without an \"icao\"") }
        self.init(icao: icao)
        var reader = FeedFieldReader(fields: fields.named("aircraft \(icao)"))
        try visit(&reader, .all)
    }
}
