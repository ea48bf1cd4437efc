import FoundationEssentials
import ModeS
import Support

/// What the person at the terminal chose: which way the radar points, how far it reaches,
/// which aircraft to show and how to draw them. Keys change it; the feed is told about the
/// parts the daemon computes (heading, range, altitude band) with a `view` command.
package struct RadarSettings: Sendable, Equatable {
    /// Degrees from true north the top of the radar points to, in [0, 360).
    package var headingDeg: Double
    /// Radius of the radar, km.
    package var rangeKm: Double
    /// Whether aircraft carry their callsign on the radar.
    package var showLabels: Bool
    /// Which altitudes are shown.
    package var filter: AltitudeFilter

    /// Zoom steps for `+` and `-`, km: roughly 1.5x apart, from an airfield circuit to a
    /// whole-receiver view (the daemon's limit is 1000 km).
    package static let rangeSteps: [Double] = [5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000]

    /// Degrees one press of left or right turns the radar.
    package static let headingStep = 10.0

    /// Settings with the daemon's defaults (north up, 50 km) unless given.
    package init(headingDeg: Double = 0, rangeKm: Double = 50, showLabels: Bool = true, filter: AltitudeFilter = .all) {
        self.headingDeg = RadarSettings.normalised(headingDeg)
        self.rangeKm = rangeKm
        self.showLabels = showLabels
        self.filter = filter
    }

    /// Turns the radar by `degrees` (positive clockwise), staying in [0, 360).
    package mutating func turn(by degrees: Double) {
        headingDeg = RadarSettings.normalised(headingDeg + degrees)
    }

    /// Zooms in (`inward`, a smaller radius) or out, to the next step.
    package mutating func zoom(inward: Bool) {
        if inward {
            rangeKm = RadarSettings.rangeSteps.last { $0 < rangeKm - 1e-9 } ?? RadarSettings.rangeSteps[0]
        } else {
            rangeKm = RadarSettings.rangeSteps.first { $0 > rangeKm + 1e-9 } ?? RadarSettings.rangeSteps.last!
        }
    }

    /// The `view` command that asks the daemon for frames drawn with these settings (one line,
    /// without its newline). Headings are rounded to 0.01°, as the feed rounds them.
    package var viewCommand: String {
        "{\"type\":\"view\",\"heading_deg\":\(RadarSettings.number(headingDeg)),\"range_km\":\(RadarSettings.number(rangeKm)),"
            + "\"min_alt_ft\":\(RadarSettings.number(filter.minFt)),\"max_alt_ft\":\(RadarSettings.number(filter.maxFt))}"
    }

    /// A `view` command naming only the heading and/or the range, leaving the rest of the
    /// daemon's view as it is (for options given on the command line); nil when neither.
    package func viewCommand(heading: Bool, range: Bool) -> String? {
        var fields: [String] = []
        if heading { fields.append("\"heading_deg\":\(RadarSettings.number(headingDeg))") }
        if range { fields.append("\"range_km\":\(RadarSettings.number(rangeKm))") }
        guard !fields.isEmpty else { return nil }
        return "{\"type\":\"view\"," + fields.joined(separator: ",") + "}"
    }

    /// A number as the feed writes it: at most two decimals, whole numbers without a fraction.
    static func number(_ value: Double?) -> String {
        guard let value else { return "null" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? DecimalText.fixed(rounded, places: 0) : String(rounded)
    }

    /// `degrees` in [0, 360).
    static func normalised(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        let positive = value < 0 ? value + 360 : value
        return positive >= 360 - 1e-9 ? 0 : positive
    }
}
