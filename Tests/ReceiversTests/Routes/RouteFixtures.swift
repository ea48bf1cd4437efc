import Identity

/// Route service answers in the shape adsbdb gives, for the route tests.
enum RouteFixtures {
    /// The answer for a known callsign, with the airports' codes and names given.
    static func known(
        callsign: String = "BAW123",
        origin: (icao: String, iata: String, name: String) = ("EGLL", "LHR", "London Heathrow Airport"),
        destination: (icao: String, iata: String, name: String) = (
            "KJFK", "JFK", "John F Kennedy International Airport"
        )
    ) -> String {
        """
        {"response":{"flightroute":{"callsign":"\(callsign)","callsign_icao":"\(callsign)","callsign_iata":"BA123",\
        "airline":{"name":"British Airways","icao":"BAW","iata":"BA","country":"United Kingdom","country_iso":"GB","callsign":"SPEEDBIRD"},\
        "origin":{"country_iso_name":"GB","country_name":"United Kingdom","elevation":83,"iata_code":"\(origin.iata)",\
        "icao_code":"\(origin.icao)","latitude":51.4706,"longitude":-0.461941,"municipality":"London","name":"\(origin.name)"},\
        "destination":{"country_iso_name":"US","country_name":"United States","elevation":13,"iata_code":"\(destination.iata)",\
        "icao_code":"\(destination.icao)","latitude":40.639801,"longitude":-73.7789,"municipality":"New York","name":"\(destination.name)"}}}}
        """
    }

    /// The answer for a callsign the service does not know.
    static let unknown = #"{"response":"unknown callsign"}"#
}
