import ModeS
import Support

/// Where a flight comes from and where it goes, as the feed carries it in an aircraft's
/// `route` (`null` when unknown, or when no route service is configured).
package struct FeedRoute: Sendable, Equatable {
    /// The airport the flight left.
    package var origin: FeedAirport
    /// The airport it is bound for.
    package var destination: FeedAirport

    /// A route from its two ends.
    package init(origin: FeedAirport, destination: FeedAirport) {
        self.origin = origin
        self.destination = destination
    }

    /// `{"origin":{…},"destination":{…}}`.
    package var json: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.addRaw("origin", origin.json)
        w.addRaw("destination", destination.json)
        return w.result
    }

    /// Reads a route object; both ends must be there.
    init(_ fields: JSONFields) throws(FeedParseError) {
        guard let origin = try fields.object("origin"), let destination = try fields.object("destination") else {
            throw FeedParseError("\(fields.place ?? "route") needs an \"origin\" and a \"destination\"")
        }
        self.init(origin: try FeedAirport(origin), destination: try FeedAirport(destination))
    }
}

/// One end of a route: its ICAO and IATA codes and its name, each possibly unknown.
package struct FeedAirport: Sendable, Equatable {
    /// Four-letter ICAO code, e.g. "EGLL".
    package var icao: String?
    /// Three-letter IATA code, e.g. "LHR".
    package var iata: String?
    /// The airport's name, e.g. "London Heathrow Airport".
    package var name: String?

    /// An airport from its parts.
    package init(icao: String?, iata: String?, name: String?) {
        self.icao = icao
        self.iata = iata
        self.name = name
    }

    /// `{"icao":…,"iata":…,"name":…}`.
    package var json: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("icao", icao)
        w.add("iata", iata)
        w.add("name", name)
        return w.result
    }

    init(_ fields: JSONFields) throws(FeedParseError) {
        self.init(icao: try fields.string("icao"), iata: try fields.string("iata"), name: try fields.string("name"))
    }
}
