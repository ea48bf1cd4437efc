/// Where a flight comes from and where it goes, as a route service knows it for the
/// flight's callsign: shown beside the aircraft so that a user sees "LHR → JFK" and not only
/// "BAW123".
///
/// A route belongs to the callsign, not to the airframe: the same callsign flies the same
/// route every day, so the answer is kept per callsign. It comes from outside, so every
/// string in it has been checked (codes of letters and digits, names of printable
/// characters and bounded length) before a value is made.
package struct FlightRoute: Sendable, Hashable {
    /// One end of a route. At least one of the two codes is present: an airport with neither
    /// could not be shown or looked up.
    package struct Airport: Sendable, Hashable {
        /// The four-character ICAO code ("EGLL"), if known.
        package let icao: String?
        /// The three-character IATA code ("LHR"), if known.
        package let iata: String?
        /// The airport's name ("London Heathrow Airport"), if known.
        package let name: String?
        /// The town or city it serves ("London"), if known.
        package let municipality: String?
        /// Its latitude in degrees, if known (the offline data has it; the route service not).
        package let latitude: Double?
        /// Its longitude in degrees, if known.
        package let longitude: Double?

        /// An airport; nil when neither code is given.
        package init?(
            icao: String?, iata: String?, name: String? = nil, municipality: String? = nil, latitude: Double? = nil,
            longitude: Double? = nil
        ) {
            guard icao != nil || iata != nil else { return nil }
            self.icao = icao
            self.iata = iata
            self.name = name
            self.municipality = municipality
            self.latitude = latitude
            self.longitude = longitude
        }

        /// The shortest label: the IATA code travellers know, else the ICAO code.
        package var code: String { iata ?? icao ?? "" }
    }

    /// The callsign the route was asked for, upper case ("BAW123").
    package let callsign: String
    /// Where the flight departs.
    package let origin: Airport
    /// Where the flight arrives.
    package let destination: Airport
    /// Where it lands on the way, in order (a multi-leg route "A-B-C" has B); usually none.
    package let stops: [Airport]
    /// Where the route comes from.
    package let source: Source

    /// Where a route was learnt.
    package enum Source: String, Sendable, Hashable {
        /// The offline standing data shipped with the project.
        case offline
        /// The online route service (`--route-api`).
        case online
    }

    /// A route for `callsign` from `origin` to `destination` by way of `stops`.
    package init(
        callsign: String, origin: Airport, destination: Airport, stops: [Airport] = [], source: Source = .online
    ) {
        self.callsign = callsign
        self.origin = origin
        self.destination = destination
        self.stops = stops
        self.source = source
    }

    /// Every airport in the order flown: origin, stops, destination.
    package var airports: [Airport] { [origin] + stops + [destination] }
}
