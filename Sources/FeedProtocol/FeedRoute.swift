import ModeS
import Support

/// Where a flight comes from and where it goes, as the feed carries it in an aircraft's
/// `route` (`null` when unknown, or when no route service is configured).
package struct FeedRoute: Sendable, Equatable {
    /// The airport the flight left.
    package var origin: FeedAirport
    /// The airport it is bound for.
    package var destination: FeedAirport
    /// The airports it calls at on the way, in order (a multi-leg flight number); empty for
    /// a direct flight.
    package var stops: [FeedAirport]

    /// The most stops carried: more than any scheduled flight number makes.
    package static let maximumStops = 8

    /// A route from its two ends and its stops.
    package init(origin: FeedAirport, destination: FeedAirport, stops: [FeedAirport] = []) {
        self.origin = origin
        self.destination = destination
        self.stops = Array(stops.prefix(Self.maximumStops))
    }

    /// Both ends and the stops, in wire order: the one list its writer and parser follow.
    mutating func visit<V: FeedFieldVisitor>(_ v: inout V) throws(V.Failure) {
        try v.object("origin", &origin)
        try v.object("destination", &destination)
        try v.objects("stops", &stops, limit: Self.maximumStops)
    }

    /// Reads a route object; both ends must be there.
    init(_ fields: JSONFields) throws(FeedParseError) {
        guard try fields.object("origin") != nil, try fields.object("destination") != nil else {
            throw FeedParseError("\(fields.place ?? "route") needs an \"origin\" and a \"destination\"")
        }
        self.init(origin: FeedAirport(), destination: FeedAirport())
        var reader = FeedFieldReader(fields: fields)
        try visit(&reader)
    }
}

/// One end of a route: its ICAO and IATA codes, its name and its position, each possibly
/// unknown (the route service gives no positions; the offline data does).
package struct FeedAirport: Sendable, Equatable {
    /// Four-letter ICAO code, e.g. "EGLL".
    package var icao: String?
    /// Three-letter IATA code, e.g. "LHR".
    package var iata: String?
    /// The airport's name, e.g. "London Heathrow Airport".
    package var name: String?
    /// Its latitude in degrees.
    package var latitude: Double?
    /// Its longitude in degrees.
    package var longitude: Double?

    /// An airport from its parts; by default all unknown.
    package init(
        icao: String? = nil, iata: String? = nil, name: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil
    ) {
        self.icao = icao
        self.iata = iata
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Every field, in wire order: the one list its writer and parser follow.
    mutating func visit<V: FeedFieldVisitor>(_ v: inout V) throws(V.Failure) {
        try v.text("icao", &icao)
        try v.text("iata", &iata)
        try v.text("name", &name)
        try v.number("lat", &latitude, decimals: 4)
        try v.number("lon", &longitude, decimals: 4)
    }

    /// Reads an airport object; each field may be unknown.
    init(_ fields: JSONFields) throws(FeedParseError) {
        self.init()
        var reader = FeedFieldReader(fields: fields)
        try visit(&reader)
    }
}

extension FeedRoute: FeedObject {}
extension FeedAirport: FeedObject {}
