import Foundation
import Identity
import TestSupport
import Testing

/// The plausibility rule (`RoutePlausibility`): real routes of the standing data accepted for
/// aircraft along them, and wrong routes, real and hand-made, refused.
@Suite struct RoutePlausibilityTests {
    static func airport(_ code: String, _ latitude: Double, _ longitude: Double) -> FlightRoute.Airport {
        FlightRoute.Airport(icao: code, iata: nil, latitude: latitude, longitude: longitude)!
    }

    static let heathrow = airport("EGLL", 51.4706, -0.4619)
    static let kennedy = airport("KJFK", 40.6398, -73.7789)
    static let gatwick = airport("EGKK", 51.1481, -0.1903)
    static let nice = airport("LFMN", 43.6584, 7.2159)
    static let schiphol = airport("EHAM", 52.3086, 4.7639)
    static let frankfurt = airport("EDDF", 50.0333, 8.5706)

    @Test func anAircraftAlongALegOrNearAnEndFitsIt() {
        let atlantic = FlightRoute(callsign: "BAW117", origin: Self.heathrow, destination: Self.kennedy)
        // Over the west of Ireland, on the way out; mid-Atlantic, 300 km south of the great
        // circle (room for a track); climbing out of Heathrow to the east, against the way.
        #expect(RoutePlausibility.isPlausible(atlantic, latitude: 53.0, longitude: -10.0))
        #expect(RoutePlausibility.isPlausible(atlantic, latitude: 49.5, longitude: -40.0))
        #expect(RoutePlausibility.isPlausible(atlantic, latitude: 51.5, longitude: 0.1))
    }

    @Test func handMadeWrongRoutesAreRefused() {
        // easyJet Gatwick to Nice, but the aircraft is over Amsterdam, Frankfurt, or Madrid.
        let riviera = FlightRoute(callsign: "EZY8401", origin: Self.gatwick, destination: Self.nice)
        #expect(RoutePlausibility.isPlausible(riviera, latitude: 47.5, longitude: 3.5))
        #expect(!RoutePlausibility.isPlausible(riviera, latitude: 52.3, longitude: 4.8))
        #expect(!RoutePlausibility.isPlausible(riviera, latitude: 50.0, longitude: 8.6))
        #expect(!RoutePlausibility.isPlausible(riviera, latitude: 40.4, longitude: -3.7))
        // A transatlantic route for an aircraft over Frankfurt.
        let atlantic = FlightRoute(callsign: "BAW117", origin: Self.heathrow, destination: Self.kennedy)
        #expect(!RoutePlausibility.isPlausible(atlantic, latitude: 50.0, longitude: 8.6))
    }

    @Test func aMultiLegRouteFitsAlongAnyLeg() {
        let route = FlightRoute(
            callsign: "KLM1", origin: Self.heathrow, destination: Self.frankfurt, stops: [Self.schiphol])
        #expect(RoutePlausibility.isPlausible(route, latitude: 52.0, longitude: 2.0))
        #expect(RoutePlausibility.isPlausible(route, latitude: 51.2, longitude: 6.7))
        #expect(!RoutePlausibility.isPlausible(route, latitude: 48.9, longitude: 2.4))
    }

    @Test func aRouteWithAnEndOfUnknownPositionIsNotShown() {
        let route = FlightRoute(
            callsign: "XXX1", origin: FlightRoute.Airport(icao: "ZZZZ", iata: nil)!, destination: Self.nice)
        #expect(!RoutePlausibility.isPlausible(route, latitude: 43.6, longitude: 7.2))
    }

    @Test func distancesAreGreatCircles() {
        // Heathrow to Kennedy is about 5,540 km.
        let km = RoutePlausibility.distanceKm((51.4706, -0.4619), (40.6398, -73.7789))
        #expect(abs(km - 5540) < 20)
    }

    @Test(.requires(.shared(StandingDataFixture.archive), .program("tar")), .tags(.slow))
    func realRoutesFitAlongThemAndNotElsewhere() throws {
        let store = try #require(StandingDataFixture.built?.store)
        // Whatever the data says for these callsigns, an aircraft halfway along the route's
        // first leg fits it, and one on the far side of the globe does not.
        var checked = 0
        for callsign in ["EZY1", "BAW1", "DLH400", "KLM1001", "RYR1", "AFR1", "UAL1", "EZY8401", "U21234", "BA117"] {
            guard let route = store.route(for: callsign) else { continue }
            checked += 1
            let a = route.airports[0]
            let b = route.airports[1]
            let middle = Self.midpoint((a.latitude!, a.longitude!), (b.latitude!, b.longitude!))
            #expect(RoutePlausibility.isPlausible(route, latitude: middle.0, longitude: middle.1), "\(callsign)")
            let antipode = (-a.latitude!, a.longitude! > 0 ? a.longitude! - 180 : a.longitude! + 180)
            #expect(!RoutePlausibility.isPlausible(route, latitude: antipode.0, longitude: antipode.1), "\(callsign)")
        }
        #expect(checked >= 5)
    }

    /// The point halfway along the great circle from `a` to `b` (degrees).
    static func midpoint(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
        func vector(_ p: (Double, Double)) -> (Double, Double, Double) {
            let (lat, lon) = (p.0 * .pi / 180, p.1 * .pi / 180)
            return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        }
        let (u, v) = (vector(a), vector(b))
        let (x, y, z) = (u.0 + v.0, u.1 + v.1, u.2 + v.2)
        return (atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, atan2(y, x) * 180 / .pi)
    }
}
