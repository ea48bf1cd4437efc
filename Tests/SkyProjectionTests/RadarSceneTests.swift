import FeedProtocol
import FeedServer
import Foundation
import ModeS
import TestSupport
import Testing
import Tracking

@testable import SkyProjection

@Suite struct RadarSceneTests {
    static let near = TestSky.aircraft(icao: 1, latitude: 52.1, longitude: 4.4, altitudeFt: 3_000)  // ~11 km N
    static let far = TestSky.aircraft(icao: 2, latitude: 52.4, longitude: 4.4, altitudeFt: 36_000)  // ~44 km N
    static let beyond = TestSky.aircraft(icao: 3, latitude: 52.6, longitude: 4.4, altitudeFt: 20_000)  // ~67 km N
    static let ground = TestSky.aircraft(icao: 4, latitude: 52.01, longitude: 4.4, altitudeFt: nil, onGround: true)
    static var noPosition: AircraftState {
        var state = TestSky.aircraft(icao: 5, latitude: 0, longitude: 0, altitudeFt: 10_000)
        state.position = nil
        return state
    }

    func scene(_ aircraft: [AircraftState], observer: Observer? = TestSky.observer) -> RadarScene {
        RadarScene(
            seq: 7, time: 1000,
            snapshot: RadarSnapshot(observer: observer, source: "test", now: 101, aircraft: aircraft))
    }

    func icaos(_ frame: FeedFrame) -> [UInt32] { frame.aircraft.compactMap { UInt32($0.icao, radix: 16) } }

    @Test func rangeOmitsAircraftBeyondItAndPositionlessOnesNeverAppear() {
        let scene = scene([Self.near, Self.far, Self.beyond, Self.ground, Self.noPosition])
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 50))) == [1, 2, 4])
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 100))) == [1, 2, 3, 4])
    }

    @Test func aViewWithItsOwnObserverSeesTheSkyFromThere() throws {
        // The receiver at 52.0 N; the client 0.4° north, beyond `far` (52.4) and `beyond` (52.6).
        let scene = scene([Self.near, Self.far, Self.beyond])
        let client = Observer(latitude: 52.5, longitude: 4.4, altitudeMetres: 0)
        let frame = scene.frame(for: RadarView(rangeKm: 50, observer: client))
        // From there `near` (~44 km south) and `beyond` (~11 km north) are in range, `far` too.
        #expect(icaos(frame) == [1, 2, 3])
        let seen = Dictionary(uniqueKeysWithValues: frame.aircraft.map { ($0.icao, $0) })
        let near = try #require(seen["000001"])
        let beyond = try #require(seen["000003"])
        #expect(abs(try #require(near.azimuthDeg) - 180) < 0.01)
        let azimuth = try #require(beyond.azimuthDeg)
        #expect(abs(azimuth) < 0.01 || abs(azimuth - 360) < 0.01)
        #expect(abs(try #require(near.groundKm) - 44.5) < 0.5)
        #expect(abs(try #require(beyond.groundKm) - 11.1) < 0.2)
        // Placement follows: `near` is at the bottom of a north-up radar.
        #expect(try #require(near.y) < -0.8)
        // The same scene for the receiver is unchanged.
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 50))) == [1, 2])
    }

    @Test func filters() {
        let scene = scene([Self.near, Self.far, Self.beyond, Self.ground])
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 100, hideOnGround: true))) == [1, 2, 3])
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 100, minAltitudeFt: 10_000))) == [2, 3])
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 100, maxAltitudeFt: 20_000))) == [1, 3])
        #expect(icaos(scene.frame(for: RadarView(rangeKm: 100, maxDistanceKm: 20))) == [1, 4])
    }

    @Test func withoutAReceiverPositionsAreListedWithoutProjection() throws {
        let frame = scene([Self.near, Self.beyond], observer: nil).frame(for: RadarView(rangeKm: 10))
        #expect(icaos(frame) == [1, 3])
        let line = frame.jsonLine
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let first = try #require((object["aircraft"] as? [[String: Any]])?.first)
        #expect(first["azimuth_deg"] is NSNull)
        #expect(first["x"] is NSNull)
        #expect(first["lat"] as? Double == 52.1)
    }

    @Test func xyFollowTheHeading() throws {
        let scene = scene([Self.near])
        let north = try #require(scene.frame(for: RadarView(headingDeg: 0, rangeKm: 50)).aircraft.first)
        let (northX, northY) = (try #require(north.x), try #require(north.y))
        #expect(abs(northX) < 1e-3)
        #expect(northY > 0.2)
        // Facing east, an aircraft to the north is on the left.
        let east = try #require(scene.frame(for: RadarView(headingDeg: 90, rangeKm: 50)).aircraft.first)
        #expect(abs(try #require(east.x) + northY) < 1e-6)
        #expect(abs(try #require(east.y)) < 1e-3)
    }

    @Test func scaleAndAges() throws {
        var stale = Self.far
        stale.positionTime = 80
        let frame = scene([Self.near, stale, Self.ground]).frame(for: RadarView(rangeKm: 100))
        let near = try #require(frame.aircraft.first { $0.icao == "000001" })
        #expect(abs((near.scale ?? 0) - IconScale.scale(heightMetres: 914.4)) < 1e-12)
        #expect(near.seenSeconds == 1)
        #expect(!near.stale)
        let far = try #require(frame.aircraft.first { $0.icao == "000002" })
        #expect(far.stale)
        #expect(far.positionAgeSeconds == 21)
        let ground = try #require(frame.aircraft.first { $0.icao == "000004" })
        #expect(ground.scale == 2)
        #expect(ground.groundKm != nil && ground.elevationDeg == nil)
    }

    @Test func configurationDefaultsAndLimits() {
        let defaults = RadarConfiguration()
        #expect(defaults.headingDeg == 0 && defaults.rangeKm == 50 && defaults.frameInterval == 1)
        #expect(defaults.problem == nil)
        #expect(RadarConfiguration(headingDeg: 361).problem?.contains("--heading") == true)
        #expect(RadarConfiguration(rangeKm: 0).problem?.contains("--range-km") == true)
        #expect(RadarConfiguration(frameInterval: 0).problem?.contains("--frame-interval") == true)
        #expect(FeedConfiguration(socketPath: "/tmp/x.sock").stallTimeout == 5)
        #expect(
            FeedConfiguration(socketPath: "/tmp/x.sock", radar: RadarConfiguration(frameInterval: 0.1)).stallTimeout
                == 3)
    }
}

@Suite struct LiveTrackerSnapshotProviderTests {
    @Test func takesTheTrackersAircraftAndSource() async {
        let tracker = WiredTracker(receiver: GeoPoint(latitude: 52, longitude: 4.4))
        tracker.setSource("replay", slot: "replay")
        tracker.accept(
            TestSky.aircraft(
                icao: 0x4840D6, latitude: 52.2, longitude: 4.7, altitudeFt: 19_685,
                lastSeen: Date().timeIntervalSince1970))
        let snapshot = await LiveTrackerSnapshotProvider(
            tracker: tracker.tracker, pipeline: tracker.pipeline, heightMetres: 12
        ).radarSnapshot()
        #expect(snapshot.source == "replay")
        #expect(snapshot.observer == Observer(latitude: 52, longitude: 4.4, altitudeMetres: 12))
        #expect(snapshot.aircraft.map(\.icao) == [0x4840D6])
        let frame = RadarScene(seq: 1, time: 0, snapshot: snapshot).frame(for: RadarView())
        #expect(frame.aircraft.count == 1)
    }
}
