import FeedProtocol
import Foundation
import Identity
import ModeS
import NIOCore
import SkyProjection
import Support
import Synchronization
import TestSupport
import Testing
import Tracking

@testable import FeedServer

/// The feed's exact bytes for fixed skies at fixed times, compared with
/// `Tests/Fixtures/feed-golden.txt`: frames for several views (headings, ranges, filters, an
/// observer of the client's own, no receiver), greetings, answers to commands, frames read
/// back and written again, and the MQTT output's aircraft objects. The skies are the bundled
/// busy-airport sample fed through a pipeline and tracker on a fixed clock, and hand-made
/// aircraft with unusual values. The fixture was recorded by the code before the feed path
/// was restructured; the wire must not change by a byte. `FEED_GOLDEN_RECORD=1` writes it
/// again (only for a deliberate change of the wire, reviewed in the diff).
@Suite struct FeedGoldenTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed-golden.txt")

    /// Seconds since 1970 at the start of the sample.
    static let base = 1_765_000_000.0
    /// The wall-clock time frames are stamped with.
    static let wallTime = 1_765_000_123.4567
    /// The busy-airport sample's receiver.
    static let receiver = Observer(latitude: 52.3, longitude: 4.75, altitudeMetres: 15)

    /// The views frames are rendered for.
    static let views: [RadarView] = [
        RadarView(),
        RadarView(headingDeg: 90, rangeKm: 30),
        RadarView(headingDeg: 359.996, rangeKm: 200),
        RadarView(headingDeg: 271.5, rangeKm: 0.1),
        RadarView(rangeKm: 120, minAltitudeFt: 1000, maxAltitudeFt: 20_000, maxDistanceKm: 25, hideOnGround: true),
        RadarView(
            headingDeg: 45, rangeKm: 80, observer: Observer(latitude: 52.35, longitude: 4.9, altitudeMetres: 120)),
        RadarView(headingDeg: 180, rangeKm: 1000, observer: receiver),
        RadarView(rangeKm: 60, minAltitudeFt: -2000, hideOnGround: true)
    ]

    /// A clock tests set by hand.
    final class FixedClock: Sendable {
        let time = Mutex(FeedGoldenTests.base)
        func read() -> Double { time.withLock { $0 } }
        func set(_ value: Double) { time.withLock { $0 = value } }
    }

    /// A transport that writes nothing: a test takes its client's lines itself.
    final class Recorder: FeedTransport {
        let client: FeedClient

        /// A client of `hub` that joined and set its view to `view` (with a command).
        init(hub: FeedHub, view: RadarView) {
            client = FeedClient(hub: hub)
            client.transport = self
            #expect(client.join())
            client.receive(command: Array(Self.command(setting: view).utf8))
            #expect(client.view == view)
            _ = lines()
        }

        /// A client of `hub` that joined with the daemon's starting view.
        private init(joining hub: FeedHub) {
            client = FeedClient(hub: hub)
            client.transport = self
            #expect(client.join())
        }

        /// A client of `hub` that joined with the daemon's starting view, its greeting waiting.
        static func silent(hub: FeedHub) -> Recorder { Recorder(joining: hub) }

        func linesWaiting() {}
        func close() {}

        /// What the client's outbox releases, each frame taken as written.
        func lines() -> [String] {
            var lines: [String] = []
            while let write = client.nextWrite(writable: true) {
                switch write {
                case .control(let line): lines.append(String(buffer: line))
                case .frame(let line):
                    lines.append(String(buffer: line))
                    client.frameWritten()
                }
            }
            return lines
        }

        /// A `view` command setting every field of `view`, numbers at full precision.
        static func command(setting view: RadarView) -> String {
            func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "null" }
            let observer = view.observer.map {
                #"{"lat":\#($0.latitude),"lon":\#($0.longitude),"alt_m":\#($0.altitudeMetres)}"#
            }
            return #"{"type":"view","heading_deg":\#(view.headingDeg),"range_km":\#(view.rangeKm),"#
                + #""min_alt_ft":\#(number(view.minAltitudeFt)),"max_alt_ft":\#(number(view.maxAltitudeFt)),"#
                + #""max_distance_km":\#(number(view.maxDistanceKm)),"hide_on_ground":\#(view.hideOnGround),"#
                + #""observer":\#(observer ?? "null")}"#
        }
    }

    /// The busy-airport sample through a pipeline and tracker on a fixed clock, with routes
    /// for three of its callsigns.
    static func busyTracker() throws -> (WiredTracker, FixedClock) {
        let clock = FixedClock()
        clock.set(base + 0.8)
        let wired = WiredTracker(
            receiver: GeoPoint(latitude: receiver.latitude, longitude: receiver.longitude),
            clock: { clock.read() })
        for (frame, time) in try OutputTestFrames.busyAirport() { wired.accept(frame, at: base + time) }
        let callsigns = wired.tracker.callsigns().sorted()
        var routes: [String: FlightRoute] = [:]
        let quoted = FlightRoute.Airport(icao: "EHAM", iata: "AMS", name: "Schiphol \"Airport\"\\\u{1}")!
        let plain = FlightRoute.Airport(icao: "EGLL", iata: nil, name: nil)!
        for callsign in callsigns.prefix(3) {
            routes[callsign] = FlightRoute(callsign: callsign, origin: quoted, destination: plain)
        }
        wired.tracker.setRoutes(routes)
        return (wired, clock)
    }

    /// Hand-made aircraft near the receiver with values at the edges of what the feed writes.
    static var oddAircraft: [AircraftState] {
        func at(_ icao: UInt32, _ latitude: Double, _ longitude: Double, _ feet: Int?) -> AircraftState {
            TestSky.aircraft(
                icao: icao, latitude: latitude, longitude: longitude, altitudeFt: feet, lastSeen: base + 0.5)
        }
        var list: [AircraftState] = []
        var overhead = at(0xA00001, receiver.latitude, receiver.longitude, 3000)
        overhead.trackDeg = 359.99
        overhead.source = .mlat
        list.append(overhead)
        var geoOnly = at(0xA00002, 52.31, 4.76, nil)
        geoOnly.altitudeGeoFt = 1250
        geoOnly.verticalRateFpm = 0
        geoOnly.callsign = "A\"B\\C\n\u{2028}é"
        list.append(geoOnly)
        var ground = at(0xA00003, 52.29, 4.74, nil)
        ground.onGround = true
        ground.trackDeg = nil
        ground.groundSpeedKt = .nan
        list.append(ground)
        var unknown = at(0xA00004, 52.2, 4.6, nil)
        unknown.onGround = nil
        unknown.positionTime = nil
        unknown.callsign = nil
        unknown.category = nil
        unknown.squawk = nil
        unknown.verticalRateFpm = nil
        unknown.source = .opensky
        list.append(unknown)
        var future = at(0x000A05, 51.9, 5.2, 41_000)
        future.lastSeen = base + 40
        future.positionTime = base + 40
        future.groundSpeedKt = 0.05
        future.trackDeg = -0.04
        future.source = .modeS
        future.route = FlightRoute(
            callsign: "TST5", origin: FlightRoute.Airport(icao: nil, iata: "LHR", name: "London")!,
            destination: FlightRoute.Airport(icao: "KJFK", iata: "JFK", name: nil)!)
        list.append(future)
        var stale = at(0xA00006, 52.6, 4.2, -1200)
        stale.positionTime = base - 30
        stale.altitudeGeoFt = -1100
        list.append(stale)
        return list
    }

    /// Every entry of the golden file, in order: a label, a tab and the bytes (lines keep
    /// their newline; objects without one get one).
    static func entries() throws -> String {
        var out = ""
        func add(_ label: String, _ bytes: String) {
            out += label + "\t" + bytes
            if !bytes.hasSuffix("\n") { out += "\n" }
        }
        let (wired, clock) = try busyTracker()
        // Seconds after the start, whether the receiver is known, and the views (by index)
        // whose frames are kept: every view once, then a few as the sky ages and goes stale.
        let moments: [(offset: Double, receiver: Bool, views: [Int])] = [
            (1, true, Array(views.indices)), (1, false, [0, 5]), (9.5, true, [1, 4]), (31, true, [0])
        ]
        for (seq, moment) in moments.enumerated() {
            clock.set(base + moment.offset)
            let snapshot = wired.snapshot()
            let sky = RadarSnapshot(
                observer: moment.receiver ? receiver : nil, source: "replay", now: snapshot.time,
                aircraft: snapshot.aircraft)
            let name = "frame t+\(moment.offset) \(moment.receiver ? "receiver" : "none")"
            for (index, line) in try frames(sky, seq: UInt64(seq + 1)).enumerated() where moment.views.contains(index) {
                add("\(name) view \(index)", line)
                if index == 1 { add("read back", try readBack(line)) }
            }
            guard seq == 0 else { continue }
            for state in snapshot.aircraft {
                add("mqtt t+1 \(state.icaoHex)", FeedAircraft(tracked: state, now: snapshot.time).trackedJSON)
            }
        }
        let odd = RadarSnapshot(observer: receiver, source: "test", now: base + 1, aircraft: oddAircraft)
        for (index, line) in try frames(odd, seq: 99).enumerated() {
            add("odd frame view \(index)", line)
            add("read back", try readBack(line))
        }
        for state in oddAircraft {
            add("mqtt odd \(state.icaoHex)", FeedAircraft(tracked: state, now: base + 1).trackedJSON)
        }
        for (index, line) in conversation().enumerated() { add("client \(index)", line) }
        return out
    }

    /// The frame lines the hub hands to clients of each view.
    static func frames(_ snapshot: RadarSnapshot, seq: UInt64) throws -> [String] {
        let hub = FeedHub(configuration: FeedConfiguration(socketPath: "/unused", wallClock: { wallTime }))
        let clients = views.map { Recorder(hub: hub, view: $0) }
        let scene = RadarScene(seq: seq, time: wallTime, snapshot: snapshot)
        hub.broadcast(scene, allocator: ByteBufferAllocator(), now: 0)
        let lines = clients.flatMap { $0.lines() }
        // The hub writes the views' shared parts once; a frame written whole is the same.
        #expect(lines == views.map { scene.frame(for: $0).jsonLine })
        return lines
    }

    /// A frame line read as a client reads it and written again.
    static func readBack(_ line: String) throws -> String {
        guard case .frame(let frame) = try FeedLine(parsing: String(line.dropLast())) else { return "not a frame" }
        return frame.jsonLine
    }

    /// Greetings with and without a receiver, then the answers to a run of commands.
    static func conversation() -> [String] {
        let configuration = FeedConfiguration(
            socketPath: "/unused", radar: RadarConfiguration(headingDeg: 360, rangeKm: 42.1234, frameInterval: 0.25),
            wallClock: { wallTime })
        let hub = FeedHub(configuration: configuration)
        let first = Recorder.silent(hub: hub)
        hub.announce(observer: receiver, source: "rtl-sdr, beast")
        let client = Recorder.silent(hub: hub)
        var lines = first.lines() + client.lines()
        let commands = [
            #"{"type":"view","heading_deg":359.999,"range_km":12.3456}"#,
            #"{"type":"view","min_alt_ft":1000.4,"max_alt_ft":null,"max_distance_km":0.1,"hide_on_ground":true}"#,
            #"{"type":"view","observer":{"lat":-33.123456,"lon":151.2,"alt_m":-12.34}}"#,
            #"{"type":"view","observer":{"lat":1,"lon":2}}"#,
            #"{"type":"view","heading_deg":360,"observer":null}"#,
            #"{"type":"view","heading_deg":400}"#,
            #"{"type":"view","range_km":"far"}"#,
            #"{"type":"view","observer":{"lat":91,"lon":0}}"#,
            #"{"type":"zoom","why":"\u0001"}"#,
            "not json"
        ]
        for command in commands { client.client.receive(command: Array(command.utf8)) }
        lines += client.lines()
        return lines
    }

    @Test func theFeedIsByteForByteTheRecordedOne() throws {
        let produced = try Self.entries()
        if ProcessInfo.processInfo.environment["FEED_GOLDEN_RECORD"] == "1" {
            try Data(produced.utf8).write(to: Self.fixture)
            return
        }
        let recorded = try String(contentsOf: Self.fixture, encoding: .utf8)
        if produced == recorded { return }
        let new = produced.split(separator: "\n", omittingEmptySubsequences: false)
        let old = recorded.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            zip(new, old).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(new.count, old.count)
        Issue.record(
            """
            the feed differs from \(Self.fixture.path) at line \(first + 1) (\(new.count) lines, recorded \(old.count)):
            now:      \(first < new.count ? String(new[first].prefix(600)) : "(end)")
            recorded: \(first < old.count ? String(old[first].prefix(600)) : "(end)")
            """)
    }

    /// How long the hub takes to render a busy frame for many distinct views; run with
    /// `FEED_RENDER_BENCH=1` (it prints, and checks nothing).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FEED_RENDER_BENCH"] == "1"))
    func renderTiming() throws {
        let crowd = RadarSnapshot(observer: TestSky.observer, source: "test", now: 101, aircraft: TestSky.crowd(300))
        let hub = FeedHub(configuration: FeedConfiguration(socketPath: "/unused", maxClients: 1000))
        let views = (0..<20).map { RadarView(headingDeg: Double($0) * 17, rangeKm: 40 + Double($0)) }
        let clients = (0..<200).map { Recorder(hub: hub, view: views[$0 % views.count]) }
        let rounds = 20
        var best = Double.infinity
        for seq in 1...rounds {
            let start = ContinuousClock.now
            let scene = RadarScene(seq: UInt64(seq), time: Self.wallTime, snapshot: crowd)
            hub.broadcast(scene, allocator: ByteBufferAllocator(), now: 0)
            let elapsed = (ContinuousClock.now - start).inSeconds
            best = min(best, elapsed)
            for client in clients { _ = client.lines() }
        }
        print("feed render: 300 aircraft, 20 views, 200 clients: best of \(rounds) \(best * 1000) ms per frame")
    }
}
