import Testing

@testable import FeedProtocol

/// An aircraft's identity and its route's airport positions on the feed: written by the
/// server, read back by a client to the same values.
@Suite struct FeedIdentityTests {
    @Test func identityAndRoutePositionsReadBackAsWritten() throws {
        var aircraft = FeedAircraft(icao: "4007f4", callsign: "EZY8401")
        aircraft.identity = FeedIdentity(
            registration: "G-EZAB", typeCode: "A320", typeDescription: "Airbus A-320", aircraftClass: "medium_jet",
            operatorName: "easyJet", year: "2010", country: "United Kingdom", military: false)
        aircraft.route = FeedRoute(
            origin: FeedAirport(
                icao: "EGKK", iata: "LGW", name: "London Gatwick", latitude: 51.1481, longitude: -0.1903),
            destination: FeedAirport(icao: "LFMN", iata: "NCE", name: "Nice Côte d'Azur"))
        let text = aircraft.json
        #expect(text.contains(#""lat":51.1481,"lon":-0.1903"#))
        #expect(text.contains(#""identity":{"registration":"G-EZAB","type":"A320","type_desc":"Airbus A-320""#))
        let line = FeedFrame(seq: 1, time: 2, source: "x", headingDeg: 0, rangeKm: 50, aircraft: [aircraft]).jsonLine
        guard case .frame(let frame) = try FeedLine(parsing: Array(line.utf8.dropLast())) else {
            Issue.record("not a frame")
            return
        }
        #expect(frame.aircraft == [aircraft])
    }

    @Test func aMultiLegRouteCarriesItsStopsInOrder() throws {
        var aircraft = FeedAircraft(icao: "4ca7b4", callsign: "RYR1")
        aircraft.route = FeedRoute(
            origin: FeedAirport(icao: "EIDW"), destination: FeedAirport(icao: "LEPA"),
            stops: [FeedAirport(icao: "EGSS", iata: "STN"), FeedAirport(icao: "LFBO")])
        let text = aircraft.json
        #expect(text.contains(#""stops":[{"icao":"EGSS","iata":"STN""#))
        let line = FeedFrame(seq: 1, time: 2, source: "x", headingDeg: 0, rangeKm: 50, aircraft: [aircraft]).jsonLine
        guard case .frame(let frame) = try FeedLine(parsing: Array(line.utf8.dropLast())) else {
            Issue.record("not a frame")
            return
        }
        #expect(frame.aircraft.first?.route?.stops.map(\.icao) == ["EGSS", "LFBO"])
        // A direct flight: an empty list, and a route written before stops existed reads as one.
        aircraft.route = FeedRoute(origin: FeedAirport(icao: "EHAM"), destination: FeedAirport(icao: "EGLL"))
        #expect(aircraft.json.contains(#""stops":[]"#))
    }

    @Test(arguments: [
        (#""stops":{"icao":"EGSS"}"#, "must be an array, got an object"),
        (#""stops":[1]"#, "entry 0 must be an object, got a number"),
        (#""stops":[{"icao":7}]"#, "must be a string"),
        (
            #""stops":[{},{},{},{},{},{},{},{},{}]"#,
            "holds 9 entries, more than 8"
        )
    ])
    func hostileStopsAreOneClearError(stops: String, message: String) {
        let line =
            #"{"type":"frame","seq":1,"time":2,"source":"x","heading_deg":0,"range_km":50,"aircraft":[{"icao":"4ca7b4","#
            + #""route":{"origin":{"icao":"EIDW"},"destination":{"icao":"LEPA"},"# + stops + "}}]}"
        do {
            _ = try FeedLine(parsing: Array(line.utf8))
            Issue.record("accepted \(stops)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
