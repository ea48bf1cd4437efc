/// The altitude bands the terminal radar cycles through with `f`: everything, then low,
/// middle and high traffic. The bands split where traffic naturally separates: below
/// 10,000 ft are arrivals, departures and light aircraft; above 30,000 ft the airliners in cruise.
package enum AltitudeFilter: Int, Sendable, CaseIterable {
    /// No filter.
    case all
    /// Below 10,000 ft.
    case low
    /// 10,000 to 30,000 ft.
    case middle
    /// Above 30,000 ft.
    case high

    /// Lowest altitude shown, feet; nil for no lower bound.
    package var minFt: Double? {
        switch self {
        case .all, .low: nil
        case .middle: 10_000
        case .high: 30_000
        }
    }

    /// Highest altitude shown, feet; nil for no upper bound.
    package var maxFt: Double? {
        switch self {
        case .all, .high: nil
        case .low: 10_000
        case .middle: 30_000
        }
    }

    /// The next band, back to `all` after the last.
    package var next: AltitudeFilter {
        AltitudeFilter(rawValue: rawValue + 1) ?? .all
    }

    /// A short name for the status line.
    package var name: String {
        switch self {
        case .all: "all"
        case .low: "<10000 ft"
        case .middle: "10000-30000 ft"
        case .high: ">30000 ft"
        }
    }
}
