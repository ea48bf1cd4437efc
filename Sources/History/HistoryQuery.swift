/// The parameters of a `/data/history/...` request, parsed from the query string and checked
/// before anything reaches SQL: each one known, given once, of the expected form and within
/// bounds. Anything else is a `HistoryQueryError` the server answers with 400.
///
/// `from`, `to` and `at` are whole seconds since 1970 (digits only); `hex` is six hex digits,
/// with `~` in front for a non-ICAO address; `limit` is a count; `period` is `24h` or `7d`;
/// `lat`, `lon`, `alt_m`, `range_km`, `min_alt_ft`, `max_alt_ft` and `max_distance_km` are
/// decimals (a sign, up to 6 digits, a point and up to 7 more), whose ranges the feed's own
/// view check judges; `hide_on_ground` is 0 or 1.
package struct HistoryQuery: Sendable, Equatable {
    /// Longest query string read, characters.
    package static let maxLength = 512

    /// Start of the time range, seconds since 1970.
    package var from: Double?
    /// End of the time range.
    package var to: Double?
    /// The aircraft's tracker key.
    package var address: UInt32?
    /// Most rows wanted.
    package var limit: Int?
    /// The chart's or coverage's period.
    package var period: HistoryPeriod?
    /// The moment asked for, seconds since 1970.
    package var at: Double?
    /// The observer's latitude, degrees.
    package var latitude: Double?
    /// The observer's longitude, degrees.
    package var longitude: Double?
    /// The observer's height, metres.
    package var altitudeM: Double?
    /// The radar's range, kilometres.
    package var rangeKm: Double?
    /// The view's lowest altitude, feet.
    package var minAltitudeFt: Double?
    /// The view's highest altitude, feet.
    package var maxAltitudeFt: Double?
    /// The view's farthest aircraft, kilometres.
    package var maxDistanceKm: Double?
    /// Whether the view leaves out aircraft on the ground.
    package var hideOnGround: Bool?

    /// No parameters.
    package init() {}

    /// Parses `query` (the part after `?`, nil when there is none), accepting only the
    /// parameters in `allowed`.
    package static func parse(_ query: String?, allowed: Set<String>) throws(HistoryQueryError) -> HistoryQuery {
        var result = HistoryQuery()
        guard let query, !query.isEmpty else { return result }
        guard query.utf8.count <= maxLength else { throw .init("the query is longer than \(maxLength) characters") }
        var seen: Set<Substring> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { throw .init("each parameter needs a name and a value") }
            let (name, value) = (parts[0], parts[1])
            guard allowed.contains(String(name)) else { throw .init("unknown parameter (allowed: \(list(allowed)))") }
            guard seen.insert(name).inserted else { throw .init("\(name) is given twice") }
            try result.set(String(name), value)
        }
        return result
    }

    private mutating func set(_ name: String, _ value: Substring) throws(HistoryQueryError) {
        switch name {
        case "from": from = try Self.seconds(value, name)
        case "to": to = try Self.seconds(value, name)
        case "limit":
            guard let number = Self.digits(value, maxCount: 7), number > 0 else {
                throw .init("limit must be a whole number from 1")
            }
            limit = number
        case "hex": address = try Self.address(value)
        case "at": at = try Self.seconds(value, name)
        case "lat": latitude = try Self.decimal(value, name)
        case "lon": longitude = try Self.decimal(value, name)
        case "alt_m": altitudeM = try Self.decimal(value, name)
        case "range_km": rangeKm = try Self.decimal(value, name)
        case "min_alt_ft": minAltitudeFt = try Self.decimal(value, name)
        case "max_alt_ft": maxAltitudeFt = try Self.decimal(value, name)
        case "max_distance_km": maxDistanceKm = try Self.decimal(value, name)
        case "hide_on_ground":
            guard value == "0" || value == "1" else { throw .init("hide_on_ground must be 0 or 1") }
            hideOnGround = value == "1"
        case "period":
            guard let period = HistoryPeriod(rawValue: String(value)) else { throw .init("period must be 24h or 7d") }
            self.period = period
        default: throw .init("unknown parameter")
        }
    }

    /// Seconds since 1970: up to 11 digits (until the year 5138).
    private static func seconds(_ value: Substring, _ name: String) throws(HistoryQueryError) -> Double {
        guard let number = digits(value, maxCount: 11) else {
            throw .init("\(name) must be whole seconds since 1970 (digits only)")
        }
        return Double(number)
    }

    /// A decimal: an optional `-`, 1 to 6 digits, and optionally a point and 1 to 7 digits.
    private static func decimal(_ value: Substring, _ name: String) throws(HistoryQueryError) -> Double {
        let unsigned = value.hasPrefix("-") ? value.dropFirst() : value
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard digits(parts[0], maxCount: 6) != nil, parts.count == 1 || digits(parts[1], maxCount: 7) != nil,
            let number = Double(value)
        else { throw .init("\(name) must be a decimal number such as -12.5") }
        return number
    }

    /// `value` as a number when it is 1 to `maxCount` ASCII digits.
    static func digits(_ value: Substring, maxCount: Int) -> Int? {
        guard (1...maxCount).contains(value.utf8.count), value.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        return Int(value)
    }

    /// A `hex` value: six hex digits, `~` in front for a non-ICAO address.
    private static func address(_ value: Substring) throws(HistoryQueryError) -> UInt32 {
        let nonICAO = value.hasPrefix("~")
        let hex = nonICAO ? value.dropFirst() : value
        let isHex = hex.utf8.allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
        guard hex.utf8.count == 6, isHex, let number = UInt32(hex, radix: 16) else {
            throw .init("hex must be six hex digits, ~ in front for a non-ICAO address")
        }
        return nonICAO ? number | 1 << 24 : number
    }

    private static func list(_ names: Set<String>) -> String { names.sorted().joined(separator: ", ") }

    /// The time range asked for, or `defaultSpan` seconds back from `now` for what is not
    /// given, checked: `from` before `to`, no longer than `maxSpan` seconds.
    package func range(now: Double, defaultSpan: Double, maxSpan: Double) throws(HistoryQueryError) -> ClosedRange<
        Double
    > {
        let end = to ?? (from.map { $0 + defaultSpan } ?? now)
        let start = from ?? end - defaultSpan
        guard start < end else { throw .init("from must be before to") }
        guard end - start <= maxSpan else { throw .init("the range may span at most \(Int(maxSpan)) seconds") }
        return start...end
    }

    /// The limit asked for, `defaultLimit` when none, checked against `maxLimit`.
    package func limit(default defaultLimit: Int, max maxLimit: Int) throws(HistoryQueryError) -> Int {
        guard let limit else { return defaultLimit }
        guard limit <= maxLimit else { throw .init("limit may be at most \(maxLimit)") }
        return limit
    }
}

/// A chart's or coverage's period.
package enum HistoryPeriod: String, Sendable, Equatable {
    /// The last 24 hours.
    case day = "24h"
    /// The last 7 days.
    case week = "7d"

    /// Its length, seconds.
    package var seconds: Double { self == .day ? 86_400 : 7 * 86_400 }
    /// The width of one chart point, seconds: 288 points for a day, 336 for a week.
    package var bucketSeconds: Int { self == .day ? 300 : 1800 }
}

/// A refused query parameter; the server answers 400 with its message.
package struct HistoryQueryError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, for the client.
    package let message: String

    /// An error saying `message`.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
