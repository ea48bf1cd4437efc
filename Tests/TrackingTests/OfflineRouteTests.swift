import Identity
import ModeS
import Pipeline
import Testing
import Tracking

/// The tracker's snapshots with identity data installed: each aircraft gets its identity,
/// and the offline route only when it is plausible for where the aircraft is; the route
/// service's answer only when the offline data has none.
@Suite struct OfflineRouteTests {
    static let store = """
        \(IdentityStoreFile.header)
        @airlines
        EZY\teasyJet\tEZY\tU2
        @airports
        EGKK\tLondon Gatwick\tEGKK\tLGW\tLondon\tGB\t51.1481\t-0.1903
        LFMN\tNice Côte d'Azur\tLFMN\tNCE\tNice\tFR\t43.6584\t7.2159
        @types
        A320\tAirbus\tA-320\t2\tJ\tL\tM
        @countries
        GB\tUnited Kingdom
        @blocks
        400000\t43FFFF\t0\tGB
        @aircraft
        4007f4;G-EZAB;A320;;AIRBUS A-320;2010;easyJet Airline
        @routes
        EZY8401\tEGKK-LFMN
        """

    static func tracker() throws -> LiveTracker {
        let directory = IdentityDirectory()
        directory.install(store: try Array(store.utf8).withUnsafeBufferPointer { try IdentityStoreFile.parse($0) })
        return LiveTracker(receiver: nil, clock: { 1_000 }, identities: directory)
    }

    static func report(_ icao: UInt32, _ callsign: String, _ latitude: Double, _ longitude: Double) -> StateReport {
        var report = StateReport(icao: icao, lastSeen: 1_000)
        report.callsign = callsign
        report.position = GeoPoint(latitude: latitude, longitude: longitude)
        report.positionTime = 1_000
        report.category = "A3"
        return report
    }

    @Test func aPlausibleOfflineRouteIsShownAndAnImplausibleOneRefused() throws {
        let tracker = try Self.tracker()
        tracker.merge(Self.report(0x4007F4, "EZY8401", 47.5, 3.5))  // over France, on the way to Nice
        tracker.merge(Self.report(0x4007F5, "U28401", 52.3, 4.8))  // over Amsterdam
        tracker.setRoutes([
            "U28401": FlightRoute(
                callsign: "U28401", origin: .init(icao: "EHAM", iata: nil)!,
                destination: .init(icao: "LFMN", iata: nil)!)
        ])
        let aircraft = Dictionary(uniqueKeysWithValues: tracker.snapshot().aircraft.map { ($0.icao, $0) })
        let onTheWay = try #require(aircraft[0x4007F4])
        #expect(onTheWay.route?.destination.name == "Nice Côte d'Azur")
        #expect(onTheWay.route?.source == .offline)
        #expect(onTheWay.identity?.registration == "G-EZAB")
        #expect(onTheWay.identity?.typeDescription == "Airbus A-320")
        #expect(onTheWay.identity?.country == "United Kingdom")
        #expect(onTheWay.identity?.aircraftClass == .mediumJet)
        // The offline data knows the flight, so its refusal stands: the service's answer is not used.
        let elsewhere = try #require(aircraft[0x4007F5])
        #expect(elsewhere.route == nil)
        #expect(elsewhere.identity?.operatorName == "easyJet")
        #expect(tracker.offlineRoutes == (offered: 2, refused: 1))
    }

    @Test func theRouteServiceAnswersForCallsignsTheOfflineDataDoesNotKnow() throws {
        let tracker = try Self.tracker()
        tracker.merge(Self.report(0x4007F4, "BAW1", 51.5, -0.4))
        let online = FlightRoute(
            callsign: "BAW1", origin: .init(icao: "EGLL", iata: nil)!, destination: .init(icao: "KJFK", iata: nil)!)
        tracker.setRoutes(["BAW1": online])
        #expect(tracker.snapshot().aircraft.first?.route == online)
    }
}
