import Identity
import Testing
import Tracking

@Suite struct FlightRouteTests {
    @Test func anAirportNeedsACode() {
        #expect(FlightRoute.Airport(icao: nil, iata: nil, name: "Somewhere") == nil)
        #expect(FlightRoute.Airport(icao: "EGLL", iata: nil)?.code == "EGLL")
        #expect(FlightRoute.Airport(icao: "EGLL", iata: "LHR")?.code == "LHR")
    }
}
