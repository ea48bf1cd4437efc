import Foundation

/// Reads the lines a feed client receives (`hello`, `frame`, `view`, `error`) into values.
/// It is lenient where the protocol asks clients to be (unknown types and fields are ignored)
/// and strict where a wrong value would draw a wrong radar (a frame without a heading, an
/// aircraft without an address).
public enum FeedFrameParser {
    /// Parses one line (without its newline).
    public static func parse(_ line: some Collection<UInt8>) throws(FeedParseError) -> FeedLine {
        guard let value = JSONValue.parse(Data(line)) else {
            throw FeedParseError("not valid JSON: \(excerpt(line))")
        }
        guard case .object(let fields) = value else {
            throw FeedParseError("expected a JSON object, got \(value.kindName)")
        }
        guard case .string(let type)? = fields["type"] else {
            throw FeedParseError("line has no \"type\" string")
        }
        switch type {
        case "hello": return .hello(try hello(fields))
        case "frame": return .frame(try frame(fields))
        case "view":
            guard case .object(let view)? = fields["view"] else { throw FeedParseError("view reply without a \"view\" object") }
            return .viewAcknowledged(headingDeg: try number(view, "heading_deg", in: "view"),
                                     rangeKm: try number(view, "range_km", in: "view"))
        case "error":
            guard case .string(let message)? = fields["message"] else { throw FeedParseError("error reply without a message") }
            return .error(message)
        default:
            return .other(type: type)
        }
    }

    /// Parses a string line.
    public static func parse(_ line: String) throws(FeedParseError) -> FeedLine {
        try parse(Array(line.utf8))
    }

    static func hello(_ fields: [String: JSONValue]) throws(FeedParseError) -> FeedHello {
        var latitude: Double?, longitude: Double?
        if case .object(let receiver)? = fields["receiver"] {
            latitude = try optionalNumber(receiver, "lat", in: "receiver")
            longitude = try optionalNumber(receiver, "lon", in: "receiver")
        }
        guard case .object(let view)? = fields["view"] else { throw FeedParseError("hello without a \"view\" object") }
        return FeedHello(version: Int(try number(fields, "version", in: "hello")),
                         receiverLatitude: latitude, receiverLongitude: longitude,
                         source: try string(fields, "source", in: "hello") ?? "unknown",
                         frameIntervalSeconds: try optionalNumber(fields, "frame_interval_s", in: "hello") ?? 1,
                         headingDeg: try number(view, "heading_deg", in: "hello view"),
                         rangeKm: try number(view, "range_km", in: "hello view"))
    }

    static func frame(_ fields: [String: JSONValue]) throws(FeedParseError) -> FeedFrame {
        guard case .array(let list)? = fields["aircraft"] else { throw FeedParseError("frame without an \"aircraft\" array") }
        var aircraft: [FeedAircraft] = []
        aircraft.reserveCapacity(list.count)
        for item in list {
            guard case .object(let plane) = item else { throw FeedParseError("frame aircraft must be objects, got \(item.kindName)") }
            aircraft.append(try self.aircraft(plane))
        }
        return FeedFrame(seq: Int(try number(fields, "seq", in: "frame")),
                         time: try optionalNumber(fields, "time", in: "frame") ?? 0,
                         source: try string(fields, "source", in: "frame") ?? "unknown",
                         headingDeg: try number(fields, "heading_deg", in: "frame"),
                         rangeKm: try number(fields, "range_km", in: "frame"),
                         aircraft: aircraft)
    }

    static func aircraft(_ fields: [String: JSONValue]) throws(FeedParseError) -> FeedAircraft {
        guard let icao = try string(fields, "icao", in: "aircraft") else { throw FeedParseError("aircraft without an \"icao\"") }
        let place = "aircraft \(icao)"
        return FeedAircraft(icao: icao,
                            callsign: try string(fields, "callsign", in: place),
                            altitudeBaroFt: try optionalNumber(fields, "alt_baro_ft", in: place),
                            altitudeGeoFt: try optionalNumber(fields, "alt_geo_ft", in: place),
                            groundSpeedKt: try optionalNumber(fields, "ground_speed_kt", in: place),
                            onGround: try bool(fields, "on_ground", in: place),
                            stale: try bool(fields, "stale", in: place) ?? false,
                            groundKm: try optionalNumber(fields, "ground_km", in: place),
                            bearingDeg: try optionalNumber(fields, "bearing_deg", in: place),
                            x: try optionalNumber(fields, "x", in: place),
                            y: try optionalNumber(fields, "y", in: place),
                            rotationDeg: try optionalNumber(fields, "rotation_deg", in: place),
                            scale: try optionalNumber(fields, "scale", in: place))
    }

    private static func number(_ fields: [String: JSONValue], _ key: String, in place: String) throws(FeedParseError) -> Double {
        guard let value = try optionalNumber(fields, key, in: place) else { throw FeedParseError("\(place) has no \"\(key)\" number") }
        return value
    }

    /// A number, or nil when the field is null or absent; finite numbers only.
    private static func optionalNumber(_ fields: [String: JSONValue], _ key: String, in place: String) throws(FeedParseError) -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .number(let value)? where value.isFinite: return value
        case let other?: throw FeedParseError("\(place): \"\(key)\" must be a number, got \(other.kindName)")
        }
    }

    private static func string(_ fields: [String: JSONValue], _ key: String, in place: String) throws(FeedParseError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw FeedParseError("\(place): \"\(key)\" must be a string, got \(other.kindName)")
        }
    }

    private static func bool(_ fields: [String: JSONValue], _ key: String, in place: String) throws(FeedParseError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw FeedParseError("\(place): \"\(key)\" must be true or false, got \(other.kindName)")
        }
    }

    private static func excerpt(_ line: some Collection<UInt8>) -> String {
        let text = String(decoding: line.prefix(60), as: UTF8.self)
        return line.count > 60 ? text + "…" : text
    }
}

/// Why a feed line could not be read; the message names the line's problem.
public struct FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence for people.
    public var message: String

    /// An error with its message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
