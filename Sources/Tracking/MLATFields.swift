/// Which of an aircraft's fields were last set by a multilateration result.
///
/// A multilaterated position is a good estimate, not the aircraft's own report: readers of
/// aircraft.json (tar1090 marks such aircraft) want to know which values are which.
public struct MLATFields: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8
    /// Fields from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Latitude and longitude.
    public static let position = MLATFields(rawValue: 1 << 0)
    /// Pressure altitude.
    public static let altitude = MLATFields(rawValue: 1 << 1)
    /// Ground speed.
    public static let groundSpeed = MLATFields(rawValue: 1 << 2)
    /// Track over ground.
    public static let track = MLATFields(rawValue: 1 << 3)
    /// Vertical rate.
    public static let verticalRate = MLATFields(rawValue: 1 << 4)

    /// The aircraft.json names of the fields, in a fixed order.
    public var jsonNames: [String] {
        var names: [String] = []
        if contains(.position) { names += ["lat", "lon"] }
        if contains(.altitude) { names.append("alt_baro") }
        if contains(.groundSpeed) { names.append("gs") }
        if contains(.track) { names.append("track") }
        if contains(.verticalRate) { names.append("baro_rate") }
        return names
    }

    /// Marks `field` as set by a result from multilateration or not.
    mutating func set(_ field: MLATFields, multilaterated: Bool) {
        if multilaterated { insert(field) } else { remove(field) }
    }
}
