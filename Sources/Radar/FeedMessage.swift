import Foundation
import ModeS

/// The lines of the feed protocol other than frames: what the server says on connect, how it
/// answers commands, and how it reads the commands a client sends.
public enum FeedMessage {
    /// Protocol version in the hello line; it changes only when existing fields change
    /// meaning or disappear (new fields may appear at any time).
    public static let protocolVersion = 1

    /// Longest command line accepted, in bytes; a view command is well under 300.
    public static let maxCommandBytes = 4096

    /// The command names a client may send.
    public static let commandTypes = ["view"]

    /// The greeting sent on connect: protocol version, receiver, source, frame interval and
    /// the client's starting view.
    public static func hello(observer: Observer?, source: String, frameInterval: Double, view: RadarView) -> String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "hello")
        w.add("version", protocolVersion)
        w.add("server", "aviator-adsb")
        if let observer {
            var r = JSONObjectWriter(nullForMissing: true)
            r.add("lat", observer.latitude, decimals: 5)
            r.add("lon", observer.longitude, decimals: 5)
            r.add("alt_m", observer.heightMetres, decimals: 1)
            w.addRaw("receiver", r.result)
        } else {
            w.addRaw("receiver", "null")
        }
        w.add("source", source)
        w.add("frame_interval_s", frameInterval, decimals: 3)
        w.addRaw("view", viewObject(view))
        return w.result + "\n"
    }

    /// The acknowledgement of an accepted `view` command: the client's whole view as it now
    /// stands.
    public static func viewAcknowledgement(_ view: RadarView) -> String {
        "{\"type\":\"view\",\"view\":" + viewObject(view) + "}\n"
    }

    /// An `error` line; the connection stays open.
    public static func error(_ message: String) -> String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "error")
        w.add("message", message)
        return w.result + "\n"
    }

    /// A view as a JSON object with every field present.
    static func viewObject(_ view: RadarView) -> String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.addAngle("heading_deg", view.headingDeg, decimals: 2)
        w.add("range_km", view.rangeKm, decimals: 3)
        w.add("min_alt_ft", view.minAltitudeFt, decimals: 0)
        w.add("max_alt_ft", view.maxAltitudeFt, decimals: 0)
        w.add("max_distance_km", view.maxDistanceKm, decimals: 3)
        w.add("hide_on_ground", view.hideOnGround)
        return w.result
    }

    /// Applies one command line from a client to its current view: the new view, or the
    /// text of the error to send back (the view then stays as it was). Blank lines give the
    /// current view back unchanged and should not be answered.
    public static func apply(commandLine line: [UInt8], to view: RadarView) -> Result<RadarView, CommandError> {
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(CommandError("command is not valid UTF-8"))
        }
        if text.allSatisfy(\.isWhitespace) { return .success(view) }
        guard let value = JSONValue.parse(Data(line)) else {
            return .failure(CommandError("invalid JSON: \(excerpt(text))"))
        }
        guard case .object(let fields) = value else {
            return .failure(CommandError("a command must be a JSON object, got \(value.kindName)"))
        }
        guard let type = fields["type"] else {
            return .failure(CommandError("command has no \"type\" field (known types: \(commandTypes.joined(separator: ", ")))"))
        }
        guard case .string(let name) = type else {
            return .failure(CommandError("\"type\" must be a string, got \(type.kindName)"))
        }
        switch name {
        case "view": return applyView(fields, to: view)
        default:
            return .failure(CommandError("unknown command type \"\(excerpt(name))\" (known types: \(commandTypes.joined(separator: ", ")))"))
        }
    }

    /// The fields a `view` command may carry.
    public static let viewFields = ["heading_deg", "range_km", "min_alt_ft", "max_alt_ft", "max_distance_km", "hide_on_ground"]

    /// A `view` command changes only the fields it names; `null` clears a filter.
    private static func applyView(_ fields: [String: JSONValue], to current: RadarView) -> Result<RadarView, CommandError> {
        var view = current
        for key in fields.keys.sorted() where key != "type" && !viewFields.contains(key) {
            return .failure(CommandError("unknown field \"\(excerpt(key))\" in view command (known: \(viewFields.joined(separator: ", ")))"))
        }
        do {
            if let value = fields["heading_deg"] {
                view.headingDeg = try requiredNumber("heading_deg", value)
            }
            if let value = fields["range_km"] { view.rangeKm = try requiredNumber("range_km", value) }
            if let value = fields["min_alt_ft"] { view.minAltitudeFt = try optionalNumber("min_alt_ft", value) }
            if let value = fields["max_alt_ft"] { view.maxAltitudeFt = try optionalNumber("max_alt_ft", value) }
            if let value = fields["max_distance_km"] { view.maxDistanceKm = try optionalNumber("max_distance_km", value) }
            if let value = fields["hide_on_ground"] {
                guard case .bool(let flag) = value else {
                    throw CommandError("hide_on_ground must be true or false, got \(value.kindName)")
                }
                view.hideOnGround = flag
            }
        } catch let error as CommandError {
            return .failure(error)
        } catch {
            return .failure(CommandError("\(error)"))
        }
        if let problem = view.problem { return .failure(CommandError(problem)) }
        // 360° is north as well as 0°; keep headings in [0, 360).
        if view.headingDeg == 360 { view.headingDeg = 0 }
        return .success(view)
    }

    private static func requiredNumber(_ key: String, _ value: JSONValue) throws -> Double {
        guard case .number(let number) = value else {
            throw CommandError("\(key) must be a number, got \(value.kindName)")
        }
        return number
    }

    private static func optionalNumber(_ key: String, _ value: JSONValue) throws -> Double? {
        switch value {
        case .null: return nil
        case .number(let number): return number
        default: throw CommandError("\(key) must be a number or null, got \(value.kindName)")
        }
    }

    /// The start of a client's text, for quoting it back without echoing a whole flood.
    private static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(60)) + "…"
    }
}

/// Why a client's command was refused; `message` is what the `error` line says.
public struct CommandError: Error, Sendable, Equatable {
    /// One sentence for the client.
    public var message: String

    /// An error with its message.
    public init(_ message: String) { self.message = message }
}
