import Foundation
import RadarTerminal
import SkyProjection
import TestSupport
import Testing
import Tracking

@testable import FeedProtocol

/// The client's reading of feed lines, checked against lines the server code writes.
@Suite struct FeedFrameParserTests {
    @Test func readsTheServersHello() throws {
        var view = RadarView(headingDeg: 0, rangeKm: 50)
        view.headingDeg = 45
        let line = FeedHello(
            receiver: TestSky.observer, source: "replay", frameIntervalSeconds: 0.5,
            view: view, declinationDeg: 2.3456
        ).jsonLine
        let parsed = try FeedLine(parsing: line.trimmingCharacters(in: .newlines))
        #expect(
            parsed
                == .hello(
                    FeedHello(
                        version: 1, receiver: FeedPosition(latitude: 52, longitude: 4.4, altitudeMetres: 10),
                        source: "replay", frameIntervalSeconds: 0.5, view: view, declinationDeg: 2.35)))
        let noReceiver = FeedHello(receiver: nil, source: "none", frameIntervalSeconds: 1, view: view).jsonLine
        guard case .hello(let hello) = try FeedLine(parsing: noReceiver) else {
            Issue.record("not a hello")
            return
        }
        #expect(hello.receiver == nil)
        #expect(hello.declinationDeg == nil)
    }

    @Test func readsTheServersFrame() throws {
        var partial = TestSky.aircraft(icao: 0xABCDEF, latitude: 52.1, longitude: 4.5, altitudeFt: nil)
        partial.callsign = nil
        partial.trackDeg = nil
        let sky = [TestSky.aircraft(icao: 0x4840D6, latitude: 52.2, longitude: 4.7, altitudeFt: 19_685), partial]
        let scene = RadarScene(
            seq: 42, time: 1_763_781_234.5,
            snapshot: RadarSnapshot(observer: TestSky.observer, source: "test", now: 101, aircraft: sky))
        let view = RadarView(headingDeg: 90, rangeKm: 40)
        let server = scene.frame(for: view)
        guard case .frame(let frame) = try FeedLine(parsing: Array(server.jsonLine.utf8.dropLast())) else {
            Issue.record("not a frame")
            return
        }
        #expect(frame.seq == 42)
        #expect(frame.time == 1_763_781_234.5)
        #expect(frame.headingDeg == 90)
        #expect(frame.rangeKm == 40)
        #expect(frame.aircraft.count == server.aircraft.count)
        for (read, written) in zip(frame.aircraft, server.aircraft) {
            #expect(read.icao == written.icao)
            #expect(read.callsign == written.callsign)
            #expect(read.altitudeBaroFt == written.altitudeBaroFt)
            #expect(abs((read.x ?? 9) - (written.x ?? 0)) <= 0.00005)
            #expect(abs((read.y ?? 9) - (written.y ?? 0)) <= 0.00005)
            #expect(abs((read.bearingDeg ?? 999) - (written.bearingDeg ?? 0)) <= 0.005)
            #expect(abs((read.groundKm ?? 999) - (written.groundKm ?? 0)) <= 0.005)
            #expect(read.rotationDeg.map { abs($0 - written.rotationDeg!) <= 0.05 } ?? (written.rotationDeg == nil))
            #expect(read.scale.map { abs($0 - written.scale!) <= 0.0005 } ?? (written.scale == nil))
            #expect(read.stale == written.stale)
        }
        let unknown = frame.aircraft.first { $0.icao == "abcdef" } ?? FeedAircraft(icao: "missing")
        #expect(unknown.callsign == nil && unknown.rotationDeg == nil && unknown.scale == nil)
        #expect(unknown.label == "ABCDEF")
    }

    @Test func readsAcknowledgementsErrorsAndUnknownTypes() throws {
        let ack = FeedMessage.viewAcknowledgement(RadarView(headingDeg: 90, rangeKm: 30), declinationDeg: -3.14159)
        #expect(
            try FeedLine(parsing: ack)
                == .viewAcknowledged(RadarView(headingDeg: 90, rangeKm: 30), declinationDeg: -3.14))
        let unknown = FeedMessage.viewAcknowledgement(RadarView(), declinationDeg: nil)
        #expect(try FeedLine(parsing: unknown) == .viewAcknowledged(RadarView(), declinationDeg: nil))
        // A server from before the field: the acknowledgement reads without it.
        #expect(
            try FeedLine(parsing: #"{"type":"view","view":"# + RadarView().json + "}")
                == .viewAcknowledged(RadarView(), declinationDeg: nil))
        #expect(
            try FeedLine(parsing: FeedMessage.error("range_km must be more than 0"))
                == .error("range_km must be more than 0"))
        #expect(try FeedLine(parsing: #"{"type":"weather","wind":3}"#) == .other(type: "weather"))
        // Unknown fields are ignored, as the protocol asks.
        let extra =
            #"{"type":"frame","seq":1,"time":2,"source":"x","heading_deg":0,"range_km":50,"new":true,"aircraft":[{"icao":"abc123","future":[1]}]}"#
        guard case .frame(let frame) = try FeedLine(parsing: extra) else {
            Issue.record("not a frame")
            return
        }
        #expect(frame.aircraft == [FeedAircraft(icao: "abc123")])
    }

    @Test func badLinesAreClearErrors() {
        let cases: [(String, String)] = [
            ("not json", "not valid JSON"),
            ("[1,2]", "expected a JSON object, got an array"),
            (#"{"seq":1}"#, "no \"type\""),
            (#"{"type":"frame","seq":1,"range_km":50,"aircraft":[]}"#, "frame has no \"heading_deg\" number"),
            (
                #"{"type":"frame","seq":1,"heading_deg":"up","range_km":50,"aircraft":[]}"#,
                "\"heading_deg\" must be a number, got a string"
            ),
            (
                #"{"type":"frame","seq":1,"heading_deg":0,"range_km":50,"aircraft":[{"x":1}]}"#,
                "aircraft without an \"icao\""
            ),
            (
                #"{"type":"frame","seq":1,"heading_deg":0,"range_km":50,"aircraft":[{"icao":"a","stale":1}]}"#,
                "\"stale\" must be true or false"
            ),
            (#"{"type":"frame","seq":1,"heading_deg":0,"range_km":50,"aircraft":{}}"#, "without an \"aircraft\" array"),
            (#"{"type":"error"}"#, "error reply without a message"),
            (#"{"type":"frame","seq":1,"heading_deg":0,"range_km":1e308,"aircraft":[]}"#, "frame range_km"),
            (#"{"type":"frame","seq":1,"heading_deg":0,"range_km":1e-323,"aircraft":[]}"#, "frame range_km"),
            (
                #"{"type":"hello","version":1,"receiver":null,"view":{"heading_deg":0,"range_km":-5}}"#,
                "view: range_km must be between"
            )
        ]
        for (line, fragment) in cases {
            do {
                _ = try FeedLine(parsing: line)
                Issue.record("\(line) was accepted")
            } catch {
                // Typed throws: the error is a FeedParseError.
                #expect(error.message.contains(fragment), "\(line): \(error.message)")
            }
        }
    }

    @Test func anOverlongLineIsReportedOnceAndSkippedToItsEnd() {
        var splitter = LineSplitter(limit: 4)
        #expect(splitter.pieces(from: Array("ok\nabcdefgh".utf8)) == [.line(Array("ok".utf8)), .overlong])
        #expect(splitter.pieces(from: Array("ijk".utf8)) == [])
        #expect(splitter.pieces(from: Array("lm\nnxt\r\n".utf8)) == [.line(Array("nxt".utf8))])
        #expect(splitter.pieces(from: Array("\n".utf8)) == [.line([])])
    }

    @Test func linesAreSplitAcrossReads() {
        var splitter = LineSplitter(limit: 10)
        #expect(splitter.lines(from: Array("ab".utf8)) == [])
        #expect(splitter.lines(from: Array("c\r\nde\n\nf".utf8)) == [Array("abc".utf8), Array("de".utf8), []])
        #expect(splitter.lines(from: Array("g\n".utf8)) == [Array("fg".utf8)])
        #expect(splitter.lines(from: Array("0123456789ab".utf8)) == nil)
    }
}
