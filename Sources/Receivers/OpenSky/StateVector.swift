import FoundationEssentials
import ModeS
import Pipeline
import Support

/// One OpenSky state vector: the positional JSON array the `/api/states/all` endpoint returns
/// for each aircraft, in the API's own units (metres, metres per second, Unix seconds).
///
/// The array has 17 fields, or 18 when the category is included:
/// icao24, callsign, origin_country, time_position, last_contact, longitude, latitude,
/// baro_altitude, on_ground, velocity, true_track, vertical_rate, sensors, geo_altitude,
/// squawk, spi, position_source, [category]. Fields the API documents as nullable are
/// optional here; a row whose required fields are missing or of the wrong type does not
/// decode (the response skips and counts it). Fields past the 18th are ignored, so a future
/// addition to the API does not blank the sky.
package struct StateVector: Sendable, Equatable {
    /// The 24-bit ICAO address as the API writes it: six hex digits.
    package var icao24: String
    /// Callsign, padded with blanks by the API; nil when unknown.
    package var callsign: String?
    /// Country of registration inferred from the address.
    package var originCountry: String
    /// Unix time of the last position update; nil when no position was received for 15 s.
    package var timePosition: Double?
    /// Unix time of the last message of any kind.
    package var lastContact: Double
    /// WGS-84 longitude in degrees.
    package var longitude: Double?
    /// WGS-84 latitude in degrees.
    package var latitude: Double?
    /// Barometric altitude in metres.
    package var baroAltitude: Double?
    /// Whether the last position came from a surface position report.
    package var onGround: Bool
    /// Ground speed in metres per second.
    package var velocity: Double?
    /// Track over ground, degrees clockwise from true north.
    package var trueTrack: Double?
    /// Vertical rate in metres per second, positive up.
    package var verticalRate: Double?
    /// Ids of the receivers that contributed (only when asked for; usually null).
    package var sensors: [Int]?
    /// Geometric (GNSS) altitude in metres.
    package var geoAltitude: Double?
    /// Mode A code.
    package var squawk: String?
    /// Special purpose indicator.
    package var spi: Bool
    /// Where the position came from: 0 ADS-B, 1 ASTERIX, 2 MLAT, 3 FLARM.
    package var positionSource: Int
    /// OpenSky's aircraft category number (the 18th field), when present.
    package var category: Int?

    /// A state vector from its fields (used by tests and by the decoder).
    package init(
        icao24: String, callsign: String? = nil, originCountry: String = "",
        timePosition: Double? = nil, lastContact: Double, longitude: Double? = nil,
        latitude: Double? = nil, baroAltitude: Double? = nil, onGround: Bool = false,
        velocity: Double? = nil, trueTrack: Double? = nil, verticalRate: Double? = nil,
        sensors: [Int]? = nil, geoAltitude: Double? = nil, squawk: String? = nil,
        spi: Bool = false, positionSource: Int = 0, category: Int? = nil
    ) {
        self.icao24 = icao24
        self.callsign = callsign
        self.originCountry = originCountry
        self.timePosition = timePosition
        self.lastContact = lastContact
        self.longitude = longitude
        self.latitude = latitude
        self.baroAltitude = baroAltitude
        self.onGround = onGround
        self.velocity = velocity
        self.trueTrack = trueTrack
        self.verticalRate = verticalRate
        self.sensors = sensors
        self.geoAltitude = geoAltitude
        self.squawk = squawk
        self.spi = spi
        self.positionSource = positionSource
        self.category = category
    }

    /// The address as a number, nil unless `icao24` is exactly six hex digits.
    package var address: UInt32? {
        guard icao24.utf8.count == 6, icao24.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(icao24, radix: 16)
    }

    /// The pipeline's view of this vector: feet, knots and feet per minute.
    ///
    /// Times are OpenSky's Unix seconds, but never later than `now` (the local clock): a server
    /// clock running ahead must not push the tracker's notion of now into the future.
    /// Returns nil when the address is not six hex digits.
    package func report(now: Double) -> StateReport? {
        guard let icao = address else { return nil }
        var report = StateReport(icao: icao, lastSeen: min(lastContact, now))
        report.callsign = callsign.flatMap(Self.validCallsign)
        report.category = category.flatMap(Self.emitterCategory)
        report.squawk = squawk.flatMap(Self.validSquawk)
        if let latitude, let longitude {
            report.position = GeoPoint(latitude: latitude, longitude: longitude)
            report.positionTime = min(timePosition ?? lastContact, now)
        }
        report.altitudeBaroFt = baroAltitude.map(Self.feet)
        report.altitudeGeoFt = geoAltitude.map(Self.feet)
        report.groundSpeedKt = velocity.map { $0 * Self.knotsPerMetrePerSecond }
        report.trackDeg = trueTrack
        report.verticalRateFpm = verticalRate.map { Int(($0 * 60 / Self.metresPerFoot).rounded()) }
        report.onGround = onGround
        return report
    }

    /// The international foot, exactly.
    static let metresPerFoot = 0.3048
    /// 3600 s per hour over 1852 m per nautical mile.
    static let knotsPerMetrePerSecond = 3600.0 / 1852.0

    static func feet(_ metres: Double) -> Int { Int((metres / metresPerFoot).rounded()) }

    /// A callsign is one to eight letters, digits and spaces (the identification message's
    /// characters), padded with spaces; anything else from the API is dropped, not shown.
    static func validCallsign(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        guard (1...8).contains(trimmed.utf8.count),
            trimmed.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x20 })
        else { return nil }
        return String(trimmed)
    }

    /// A Mode A code is four octal digits; anything else from the API is dropped, not shown.
    static func validSquawk(_ text: String) -> String? {
        text.utf8.count == 4 && text.allSatisfy({ ("0"..."7").contains($0) }) ? text : nil
    }

    /// OpenSky numbers the ADS-B emitter categories in one sequence; the pipeline (like the
    /// decoder) uses the ADS-B set letter and number, e.g. "A3". 0 ("no information") and
    /// 1 ("no ADS-B category information") carry nothing and map to nil.
    static func emitterCategory(_ number: Int) -> String? {
        switch number {
        case 2...8: return "A\(number - 1)"  // light ... rotorcraft: A1...A7
        case 9...15: return "B\(number - 8)"  // glider ... space vehicle: B1...B7
        case 16...20: return "C\(number - 15)"  // surface vehicles and obstacles: C1...C5
        default: return nil
        }
    }
}

extension StateVector: Decodable {
    /// Decodes the positional array; throws when a required field is missing or mistyped.
    package init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        if let count = row.count, count < 17 {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(count) fields, expected 17 or 18"))
        }
        icao24 = try row.decode(String.self)
        callsign = try row.decodeIfPresent(String.self)
        originCountry = try row.decodeIfPresent(String.self) ?? ""
        timePosition = try row.decodeIfPresent(Double.self)
        lastContact = try row.decode(Double.self)
        longitude = try row.decodeIfPresent(Double.self)
        latitude = try row.decodeIfPresent(Double.self)
        baroAltitude = try row.decodeIfPresent(Double.self)
        onGround = try row.decodeIfPresent(Bool.self) ?? false
        velocity = try row.decodeIfPresent(Double.self)
        trueTrack = try row.decodeIfPresent(Double.self)
        verticalRate = try row.decodeIfPresent(Double.self)
        sensors = try row.decodeIfPresent([Int].self)
        geoAltitude = try row.decodeIfPresent(Double.self)
        squawk = try row.decodeIfPresent(String.self)
        spi = try row.decodeIfPresent(Bool.self) ?? false
        positionSource = try row.decodeIfPresent(Int.self) ?? 0
        category = row.isAtEnd ? nil : try row.decodeIfPresent(Int.self)
        guard address != nil else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "icao24 '\(icao24.prefix(12))' is not six hex digits"))
        }
        if let latitude, !(-90...90).contains(latitude) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "latitude \(latitude) out of range"))
        }
        if let longitude, !(-180...180).contains(longitude) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "longitude \(longitude) out of range"))
        }
        for (name, value, range) in Self.physicalRanges(self) {
            if let value, !range.contains(value) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "\(name) \(value) out of range"))
            }
        }
    }

    /// What no aircraft reports: heights from below the Dead Sea to well above any airliner
    /// (m), speeds up to Mach 3 (m/s), climb or descent up to 300 m/s, tracks in degrees and
    /// times from 1970 to 2100. A value outside makes the row malformed, so nothing absurd
    /// (nor a number too large for the pipeline's integers) enters the pipeline.
    static func physicalRanges(_ row: StateVector) -> [(String, Double?, ClosedRange<Double>)] {
        [
            ("baro_altitude", row.baroAltitude, -1_000...30_000),
            ("geo_altitude", row.geoAltitude, -1_000...30_000),
            ("velocity", row.velocity, 0...1_000),
            ("true_track", row.trueTrack, -360...360),
            ("vertical_rate", row.verticalRate, -300...300),
            ("time_position", row.timePosition, 0...4_102_444_800),
            ("last_contact", row.lastContact, 0...4_102_444_800)
        ]
    }
}
