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
}
