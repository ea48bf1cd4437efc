import FoundationEssentials
import ModeS
import Support

/// The lines of the feed protocol other than frames: what the server says on connect, how it
/// answers commands, and how it reads the commands a client sends.
package enum FeedMessage {
    /// Protocol version in the hello line; it changes only when existing fields change
    /// meaning or disappear (new fields may appear at any time).
    package static let protocolVersion = 1

    /// Longest command line accepted, in bytes; a view command is well under 300.
    package static let maxCommandBytes = 4096

    /// The command names a client may send.
    package static let commandTypes = ["view"]

    /// Decimal places of `declination_deg`: 0.01°, as every angle of the feed. The model
    /// itself is good to about half a degree (the field's local anomalies), so more would
    /// only be noise; fewer would turn the radar in visible steps as a phone moves.
    package static let declinationDecimals = 2

    /// The acknowledgement of an accepted `view` command: the client's whole view as it now
    /// stands, and the magnetic declination at its observer (nil when there is none).
    package static func viewAcknowledgement(_ view: RadarView, declinationDeg: Double?) -> String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "view")
        w.addRaw("view", view.json)
        w.add("declination_deg", declinationDeg, decimals: declinationDecimals)
        return w.result + "\n"
    }

    /// An `error` line; the connection stays open.
    package static func error(_ message: String) -> String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "error")
        w.add("message", message)
        return w.result + "\n"
    }

    /// Applies one command line from a client to its current view: the new view, or the
    /// text of the error to send back (the view then stays as it was). Blank lines give the
    /// current view back unchanged and should not be answered.
    package static func apply(commandLine line: [UInt8], to view: RadarView) -> Result<RadarView, FeedCommandError> {
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(FeedCommandError("command is not valid UTF-8"))
        }
        if text.allSatisfy(\.isWhitespace) { return .success(view) }
        guard let value = JSONValue.parse(Data(line)) else {
            return .failure(FeedCommandError("invalid JSON: \(excerpt(text))"))
        }
        guard case .object(let fields) = value else {
            return .failure(FeedCommandError("a command must be a JSON object, got \(value.kindName)"))
        }
        // The decoder keeps one of two equal keys silently; which one must not decide the command.
        if let key = JSONDuplicateKey.first(in: line) {
            return .failure(FeedCommandError("duplicate key \"\(excerpt(key))\" in command; each key may appear once"))
        }
        guard let type = fields["type"] else {
            return .failure(
                FeedCommandError("command has no \"type\" field (known types: \(commandTypes.joined(separator: ", ")))")
            )
        }
        guard case .string(let name) = type else {
            return .failure(FeedCommandError("\"type\" must be a string, got \(type.kindName)"))
        }
        switch name {
        case "view": return applyView(fields, to: view)
        default:
            return .failure(
                FeedCommandError(
                    "unknown command type \"\(excerpt(name))\" (known types: \(commandTypes.joined(separator: ", ")))"))
        }
    }

    /// The fields a `view` command may carry.
    package static let viewFields = [
        "heading_deg", "range_km", "min_alt_ft", "max_alt_ft", "max_distance_km", "hide_on_ground",
        "observer"
    ]

    /// The fields of a view's `observer` object.
    package static let observerFields = ["lat", "lon", "alt_m"]

    /// A `view` command changes only the fields it names; `null` clears a filter, and a
    /// `null` observer goes back to the receiver's position.
    private static func applyView(_ values: [String: JSONValue], to current: RadarView) -> Result<
        RadarView, FeedCommandError
    > {
        var view = current
        for key in values.keys.sorted() where key != "type" && !viewFields.contains(key) {
            return .failure(
                FeedCommandError(
                    "unknown field \"\(excerpt(key))\" in view command (known: \(viewFields.joined(separator: ", ")))"))
        }
        let fields = JSONFields(values, place: nil)
        do throws(FeedParseError) {
            if values["heading_deg"] != nil { view.headingDeg = try required("heading_deg", in: fields) }
            if values["range_km"] != nil { view.rangeKm = try required("range_km", in: fields) }
            if values["min_alt_ft"] != nil { view.minAltitudeFt = try fields.number("min_alt_ft") }
            if values["max_alt_ft"] != nil { view.maxAltitudeFt = try fields.number("max_alt_ft") }
            if values["max_distance_km"] != nil { view.maxDistanceKm = try fields.number("max_distance_km") }
            if values["hide_on_ground"] != nil {
                guard let flag = try fields.bool("hide_on_ground") else {
                    throw FeedParseError("hide_on_ground must be true or false, got null")
                }
                view.hideOnGround = flag
            }
            if values["observer"] != nil {
                if let position = try fields.object("observer") {
                    for key in position.values.keys.sorted() where !observerFields.contains(key) {
                        throw FeedParseError(
                            "unknown field \"\(excerpt(key))\" in observer (known: \(observerFields.joined(separator: ", ")))"
                        )
                    }
                    view.observer = try FeedPosition(position)
                } else {
                    view.observer = nil
                }
            }
        } catch {
            return .failure(FeedCommandError(error.message))
        }
        if let problem = view.problem { return .failure(FeedCommandError(problem)) }
        // 360° is north as well as 0°; keep headings in [0, 360).
        if view.headingDeg == 360 { view.headingDeg = 0 }
        return .success(view)
    }

    /// A number a command may change but not clear.
    private static func required(_ key: String, in fields: JSONFields) throws(FeedParseError) -> Double {
        guard let value = try fields.number(key) else { throw FeedParseError("\(key) must be a number, got null") }
        return value
    }

    /// The start of a client's text, for quoting it back without echoing a whole flood.
    private static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(60)) + "…"
    }
}

/// Why a client's command was refused; `message` is what the `error` line says.
package struct FeedCommandError: Error, Sendable, Equatable {
    /// One sentence for the client.
    package var message: String

    /// An error with its message.
    package init(_ message: String) { self.message = message }
}
