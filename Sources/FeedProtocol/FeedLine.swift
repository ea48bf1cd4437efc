import FoundationEssentials
import ModeS

/// One line a feed client reads, by its `type`.
package enum FeedLine: Sendable, Equatable {
    /// The greeting.
    case hello(FeedHello)
    /// A radar frame.
    case frame(FeedFrame)
    /// The acknowledgement of a view command: the client's whole view as it now stands, and
    /// the magnetic declination at its observer (nil when the server has none).
    case viewAcknowledged(RadarView, declinationDeg: Double?)
    /// A refused command, with the server's message for people.
    case error(String)
    /// A type this client does not know; the protocol says to ignore it.
    case other(type: String)

    /// Reads one line (without its newline). Lenient where the protocol asks clients to be
    /// (unknown types and fields are ignored), strict where a wrong value would draw a wrong
    /// radar (a frame without a heading, an aircraft without an address).
    package init(parsing line: some Collection<UInt8>) throws(FeedParseError) {
        guard let value = JSONValue.parse(Data(line)) else {
            throw FeedParseError("not valid JSON: \(Self.excerpt(line))")
        }
        guard case .object(let values) = value else {
            throw FeedParseError("expected a JSON object, got \(value.kindName)")
        }
        guard case .string(let type)? = values["type"] else {
            throw FeedParseError("line has no \"type\" string")
        }
        let fields = JSONFields(values, place: type)
        switch type {
        case "hello": self = .hello(try FeedHello(fields))
        case "frame": self = .frame(try FeedFrame(fields))
        case "view":
            guard let view = try fields.object("view") else {
                throw FeedParseError("view reply without a \"view\" object")
            }
            self = .viewAcknowledged(try RadarView(view), declinationDeg: try fields.number("declination_deg"))
        case "error":
            guard let message = try fields.string("message") else {
                throw FeedParseError("error reply without a message")
            }
            self = .error(message)
        default:
            self = .other(type: type)
        }
    }

    /// Reads one line given as a string.
    package init(parsing line: String) throws(FeedParseError) {
        try self.init(parsing: Array(line.utf8))
    }

    private static func excerpt(_ line: some Collection<UInt8>) -> String {
        let text = String(decoding: line.prefix(60), as: UTF8.self)
        return line.count > 60 ? text + "…" : text
    }
}
