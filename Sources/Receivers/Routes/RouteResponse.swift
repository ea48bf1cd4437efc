import FoundationEssentials
import Identity
import ModeS
import Support

/// What a route service's answer to `GET {base}/callsign/{CALLSIGN}` says: the route, or
/// that the service does not know the callsign.
///
/// The answers follow adsbdb's form: `{"response":{"flightroute":{..., "origin":{...},
/// "destination":{...}}}}` with each airport's `icao_code`, `iata_code`, `name` and
/// `municipality`, and HTTP 404 with `{"response":"unknown callsign"}` for a callsign it
/// does not know. Everything in the answer is treated as hostile: the body is refused past
/// `maximumBodyBytes`, a code must be 3 or 4 letters or digits, a name is cut to
/// `maximumTextLength` characters with control and other invisible characters removed, and
/// a field of the wrong type counts as absent. An airport needs at least one valid code;
/// without one the answer is malformed. Other fields (airline, coordinates) are ignored.
package enum RouteResponse: Sendable, Equatable {
    /// The service knows the callsign's route.
    case route(FlightRoute)
    /// The service does not know the callsign.
    case unknown

    /// The largest body read: an answer is about one kilobyte.
    package static let maximumBodyBytes = 64 * 1024
    /// The longest airport name or municipality kept, in characters.
    package static let maximumTextLength = 100

    /// The meaning of an answer with HTTP `status` and `body` to the request for `callsign`
    /// (which the route carries; the callsign in the body is not trusted).
    package static func parse(status: Int, body: some Collection<UInt8>, callsign: String) throws(RouteError)
        -> RouteResponse
    {
        switch status {
        case 200: break
        case 404: return .unknown
        case 300..<400: throw RouteError(.status, "redirect (HTTP \(status)) not followed")
        default: throw RouteError(.status, "HTTP status \(status)")
        }
        guard body.count <= maximumBodyBytes else {
            throw RouteError(.tooLarge, "answer of \(body.count) bytes, over the limit of \(maximumBodyBytes)")
        }
        guard let json = JSONValue.parse(Data(body)) else { throw RouteError(.malformed, "answer is not JSON") }
        guard let response = json.object?["response"] else {
            throw RouteError(.malformed, "answer has no \"response\" object")
        }
        if let text = response.string {
            guard text.lowercased().contains("unknown") else {
                throw RouteError(.malformed, "answer's \"response\" is an unexpected string")
            }
            return .unknown
        }
        guard let flightRoute = response.object?["flightroute"]?.object else {
            throw RouteError(.malformed, "answer has no \"flightroute\" object")
        }
        let origin = try airport(flightRoute["origin"], "origin")
        let destination = try airport(flightRoute["destination"], "destination")
        return .route(FlightRoute(callsign: callsign, origin: origin, destination: destination))
    }

    private static func airport(_ value: JSONValue?, _ what: String) throws(RouteError) -> FlightRoute.Airport {
        guard let fields = value?.object else { throw RouteError(.malformed, "answer has no \(what) object") }
        guard
            let airport = FlightRoute.Airport(
                icao: code(fields["icao_code"]?.string), iata: code(fields["iata_code"]?.string),
                name: text(fields["name"]?.string),
                municipality: text(fields["municipality"]?.string))
        else {
            throw RouteError(.malformed, "answer's \(what) has no valid ICAO or IATA code")
        }
        return airport
    }

    /// An airport code: 3 or 4 ASCII letters or digits, returned in upper case; nil otherwise.
    static func code(_ value: String?) -> String? {
        guard let text = value, (3...4).contains(text.utf8.count),
            text.utf8.allSatisfy({ isASCIILetterOrDigit($0) })
        else { return nil }
        return text.uppercased()
    }

    /// A name: the string with control, format and unassigned characters removed, runs of
    /// white space made one space, trimmed and cut to `maximumTextLength` characters; nil when
    /// not a string or nothing is left.
    static func text(_ value: String?) -> String? {
        guard let raw = value else { return nil }
        var cleaned = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in raw.unicodeScalars.prefix(maximumTextLength * 8) {
            if scalar.properties.isWhitespace {
                pendingSpace = !cleaned.isEmpty
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: continue
            default: break
            }
            if pendingSpace { cleaned.append(" ") }
            pendingSpace = false
            cleaned.append(scalar)
        }
        let text = String(String(cleaned).prefix(maximumTextLength).trimmingWhitespace())
        return text.isEmpty ? nil : text
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
