import ModeS
import Support

/// One client's view of the radar: which way the device points, how far the radar reaches,
/// and which aircraft to leave out. The server starts every client with the daemon's
/// defaults; a client changes its own view with a `view` command.
package struct RadarView: Sendable, Hashable {
    /// Degrees from true north that the top of the screen points to, in [0, 360).
    package var headingDeg: Double
    /// Radius of the radar in kilometres (the zoom): aircraft farther away along the
    /// surface are left out, and x and y are fractions of this radius.
    package var rangeKm: Double
    /// Leave out aircraft below this altitude (feet), when set.
    package var minAltitudeFt: Double?
    /// Leave out aircraft above this altitude (feet), when set.
    package var maxAltitudeFt: Double?
    /// Leave out aircraft farther than this along the surface (km), when set; unlike
    /// `rangeKm` it does not change the scale of x and y.
    package var maxDistanceKm: Double?
    /// Leave out aircraft known to be on the ground.
    package var hideOnGround: Bool
    /// Where this client sees the sky from (a phone in the garden rather than the antenna in
    /// the loft); nil means the receiver. Azimuth, elevation, distances, x and y and the
    /// distance filters are all taken from here. Private to the client: never logged.
    package var observer: FeedPosition?

    /// Limits the server accepts, so a typo cannot produce a meaningless radar.
    package enum Limits {
        /// Largest radius: well past the radio horizon of any aircraft (about 450 km at
        /// 45,000 ft) so a whole-receiver view is possible.
        package static let maxRangeKm = 1000.0
        /// Smallest radius, and smallest distance filter: 100 m, a few aircraft lengths. A
        /// radius far below it would be written as 0 (distances have three decimals) and
        /// would make every position a division by almost nothing.
        package static let minRangeKm = 0.1
        /// Lowest altitude filter in feet: below the lowest airfields (about −1,300 ft).
        package static let minAltitudeFt = -2000.0
        /// Highest altitude filter in feet: above anything that flies with a transponder.
        package static let maxAltitudeFt = 100_000.0
        /// Lowest observer height in metres above the ellipsoid: below the Dead Sea shore
        /// (about −430 m) and the geoid's deepest dip (about −106 m) together.
        package static let minObserverAltitudeM = -600.0
        /// Highest observer height in metres: a person on a mountain or in an aircraft cabin.
        package static let maxObserverAltitudeM = 15_000.0
    }

    /// A view; by default north up, 50 km, no filters.
    package init(
        headingDeg: Double = 0, rangeKm: Double = 50, minAltitudeFt: Double? = nil,
        maxAltitudeFt: Double? = nil, maxDistanceKm: Double? = nil, hideOnGround: Bool = false,
        observer: FeedPosition? = nil
    ) {
        self.headingDeg = headingDeg
        self.rangeKm = rangeKm
        self.minAltitudeFt = minAltitudeFt
        self.maxAltitudeFt = maxAltitudeFt
        self.maxDistanceKm = maxDistanceKm
        self.hideOnGround = hideOnGround
        self.observer = observer
    }

    /// Why the view is unusable, as a sentence for an `error` reply; nil when it is valid.
    package var problem: String? {
        if !headingDeg.isFinite || headingDeg < 0 || headingDeg > 360 {
            return "heading_deg must be between 0 and 360, got \(Self.show(headingDeg))"
        }
        if !Self.isDistance(rangeKm) {
            return
                "range_km must be between \(Self.show(Limits.minRangeKm)) and \(Self.show(Limits.maxRangeKm)), got \(Self.show(rangeKm))"
        }
        for (name, value) in [("min_alt_ft", minAltitudeFt), ("max_alt_ft", maxAltitudeFt)] {
            if let value, !value.isFinite || value < Limits.minAltitudeFt || value > Limits.maxAltitudeFt {
                return
                    "\(name) must be between \(Self.show(Limits.minAltitudeFt)) and \(Self.show(Limits.maxAltitudeFt)), got \(Self.show(value))"
            }
        }
        if let low = minAltitudeFt, let high = maxAltitudeFt, low > high {
            return "min_alt_ft (\(Self.show(low))) is above max_alt_ft (\(Self.show(high)))"
        }
        if let distance = maxDistanceKm, !Self.isDistance(distance) {
            return
                "max_distance_km must be between \(Self.show(Limits.minRangeKm)) and \(Self.show(Limits.maxRangeKm)), got \(Self.show(distance))"
        }
        if let observer {
            // The values are the client's own; quoting them back to it reveals nothing.
            if !observer.latitude.isFinite || abs(observer.latitude) > 90 {
                return "observer lat must be between -90 and 90, got \(Self.show(observer.latitude))"
            }
            if !observer.longitude.isFinite || abs(observer.longitude) > 180 {
                return "observer lon must be between -180 and 180, got \(Self.show(observer.longitude))"
            }
            if !observer.altitudeMetres.isFinite || observer.altitudeMetres < Limits.minObserverAltitudeM
                || observer.altitudeMetres > Limits.maxObserverAltitudeM
            {
                return
                    "observer alt_m must be between \(Self.show(Limits.minObserverAltitudeM)) and \(Self.show(Limits.maxObserverAltitudeM)), got \(Self.show(observer.altitudeMetres))"
            }
        }
        return nil
    }

    /// Whether `km` is a usable radius or distance filter: finite and within the limits.
    package static func isDistance(_ km: Double) -> Bool {
        km.isFinite && km >= Limits.minRangeKm && km <= Limits.maxRangeKm
    }

    /// The view as a JSON object with every field present.
    package var json: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.addAngle("heading_deg", headingDeg, decimals: 2)
        w.add("range_km", rangeKm, decimals: 3)
        w.add("min_alt_ft", minAltitudeFt, decimals: 0)
        w.add("max_alt_ft", maxAltitudeFt, decimals: 0)
        w.add("max_distance_km", maxDistanceKm, decimals: 3)
        w.add("hide_on_ground", hideOnGround)
        w.addRaw("observer", observer?.json ?? "null")
        return w.result
    }

    /// Reads a whole view as the server writes it (in the hello and in acknowledgements).
    init(_ fields: JSONFields) throws(FeedParseError) {
        self.init(
            headingDeg: try fields.requiredNumber("heading_deg"), rangeKm: try fields.requiredNumber("range_km"),
            minAltitudeFt: try fields.number("min_alt_ft"), maxAltitudeFt: try fields.number("max_alt_ft"),
            maxDistanceKm: try fields.number("max_distance_km"),
            hideOnGround: try fields.bool("hide_on_ground") ?? false,
            observer: try fields.object("observer").map { fields throws(FeedParseError) in try FeedPosition(fields) })
        // The server only ever describes a valid view; one that is not cannot be drawn.
        if let problem { throw FeedParseError("view: \(problem)") }
    }

    /// Numbers in error texts: integers without a fraction, others as Swift prints them.
    package static func show(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
