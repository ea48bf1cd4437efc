import Identity
import Receivers
import Tracking

/// The input is the body of a route service's answer (`RouteResponse.parse`), read as an
/// HTTP 200 answer and as a 404.
///
/// Checks: a 404 is always `.unknown`; parsing is deterministic; a route's airports each have
/// a code, every code is 3 or 4 upper-case letters or digits, every name is non-empty, at most
/// `maximumTextLength` characters and free of control characters, and the route carries the
/// callsign that was asked for; an error is one non-empty line.
enum RouteTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let callsign = "FUZZ1"
        try check(
            (try? RouteResponse.parse(status: 404, body: input, callsign: callsign)) == .unknown, "404 not unknown")
        let first = Result { () throws(RouteError) in
            try RouteResponse.parse(status: 200, body: input, callsign: callsign)
        }
        let second = Result { () throws(RouteError) in
            try RouteResponse.parse(status: 200, body: input, callsign: callsign)
        }
        try check(first == second, "two parses differ: \(first) and \(second)")
        switch first {
        case .failure(let error):
            try check(
                !error.message.isEmpty && !error.message.contains(where: \.isNewline), "error text \(error.message)")
        case .success(.unknown):
            break
        case .success(.route(let route)):
            try check(route.callsign == callsign, "route for \(route.callsign)")
            for airport in [route.origin, route.destination] {
                try check(airport.icao != nil || airport.iata != nil, "airport without a code")
                for code in [airport.icao, airport.iata].compactMap({ $0 }) {
                    try check(
                        (3...4).contains(code.utf8.count)
                            && code.utf8.allSatisfy { byte in
                                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                            }, "code \(code)")
                }
                for text in [airport.name, airport.municipality].compactMap({ $0 }) {
                    try check(
                        !text.isEmpty && text.count <= RouteResponse.maximumTextLength,
                        "text of \(text.count) characters")
                    try check(
                        !text.unicodeScalars.contains { $0.properties.generalCategory == .control },
                        "control character in \(text)")
                }
            }
        }
    }
}
