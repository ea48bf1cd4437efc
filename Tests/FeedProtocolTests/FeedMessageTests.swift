import Foundation
import ModeS
import SkyProjection
import Support
import Testing

@testable import FeedProtocol

@Suite struct FeedMessageTests {
    func apply(_ line: String, to view: RadarView = RadarView()) -> Result<RadarView, FeedCommandError> {
        FeedMessage.apply(commandLine: Array(line.utf8), to: view)
    }

    @Test func aViewCommandChangesOnlyWhatItNames() throws {
        let start = RadarView(headingDeg: 10, rangeKm: 80, minAltitudeFt: 500)
        let view = try apply(#"{"type":"view","heading_deg":270.5,"max_distance_km":20}"#, to: start).get()
        #expect(view == RadarView(headingDeg: 270.5, rangeKm: 80, minAltitudeFt: 500, maxDistanceKm: 20))
        let cleared = try apply(#"{"type":"view","min_alt_ft":null,"hide_on_ground":true}"#, to: view).get()
        #expect(cleared.minAltitudeFt == nil)
        #expect(cleared.hideOnGround)
        #expect(try apply(#"{"type":"view","heading_deg":360}"#).get().headingDeg == 0)
        #expect(try apply("   ", to: start).get() == start)
    }

    @Test(arguments: [
        ("{\"type\":\"view\"", "invalid JSON"),
        ("42", "must be a JSON object, got a number"),
        ("{\"type\":7}", "\"type\" must be a string"),
        ("{\"type\":\"ping\"}", "unknown command type \"ping\" (known types: view)"),
        ("{\"type\":\"view\",\"heading_deg\":-1}", "heading_deg must be between 0 and 360, got -1"),
        ("{\"type\":\"view\",\"heading_deg\":null}", "heading_deg must be a number, got null"),
        ("{\"type\":\"view\",\"range_km\":1001}", "range_km must be between 0.1 and 1000, got 1001"),
        ("{\"type\":\"view\",\"max_alt_ft\":200000}", "max_alt_ft must be between -2000 and 100000"),
        ("{\"type\":\"view\",\"max_distance_km\":-5}", "max_distance_km must be between 0.1 and 1000"),
        ("{\"type\":\"view\",\"range_km\":5e-324}", "range_km must be between 0.1 and 1000, got 5e-324"),
        ("{\"type\":\"view\",\"range_km\":0.09}", "range_km must be between 0.1 and 1000, got 0.09"),
        ("{\"type\":\"view\",\"max_distance_km\":1e-9}", "max_distance_km must be between 0.1 and 1000"),
        ("{\"type\":\"view\",\"type\":\"view\"}", "duplicate key \"type\" in command"),
        ("{\"type\":\"view\",\"range_km\":10,\"range_km\":20}", "duplicate key \"range_km\""),
        ("{\"type\":\"view\",\"heading_deg\":1,\"heading\\u005fdeg\":2}", "duplicate key \"heading_deg\""),
        ("{\"type\":\"view\",\"x\":{\"a\":1,\"a\":2}}", "duplicate key \"a\""),
        ("{\"type\":\"view\",\"hide_on_ground\":1}", "hide_on_ground must be true or false, got a number"),
        ("{\"type\":\"view\",\"observer\":{\"lat\":91,\"lon\":4}}", "observer lat must be between -90 and 90, got 91"),
        ("{\"type\":\"view\",\"observer\":{\"lat\":52,\"lon\":-180.5}}", "observer lon must be between -180 and 180"),
        (
            "{\"type\":\"view\",\"observer\":{\"lat\":52,\"lon\":4,\"alt_m\":90000}}",
            "observer alt_m must be between -600 and 15000"
        ),
        ("{\"type\":\"view\",\"observer\":{\"lat\":52}}", "observer has no \"lon\" number"),
        (
            "{\"type\":\"view\",\"observer\":{\"lat\":\"52\",\"lon\":4}}",
            "observer: \"lat\" must be a number, got a string"
        ),
        (
            "{\"type\":\"view\",\"observer\":{\"lat\":52,\"lon\":4,\"height\":3}}",
            "unknown field \"height\" in observer"
        ),
        ("{\"type\":\"view\",\"observer\":[52,4]}", "observer must be an object, got an array"),
        ("{\"type\":\"view\",\"zoom\":2}", "unknown field \"zoom\" in view command")
    ])
    func refusesBadCommandsClearly(_ line: String, _ fragment: String) {
        switch apply(line) {
        case .success: Issue.record("accepted \(line)")
        case .failure(let error): #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func aViewMayCarryItsOwnObserverAndGoBackToTheReceiver() throws {
        let moved = try apply(#"{"type":"view","observer":{"lat":52.1,"lon":4.6,"alt_m":30}}"#).get()
        #expect(moved.observer == FeedPosition(latitude: 52.1, longitude: 4.6, altitudeMetres: 30))
        let heightless = try apply(#"{"type":"view","observer":{"lat":-33.9,"lon":151.2}}"#).get()
        #expect(heightless.observer == FeedPosition(latitude: -33.9, longitude: 151.2, altitudeMetres: 0))
        // Other fields leave it alone; null gives the receiver back.
        #expect(try apply(#"{"type":"view","heading_deg":90}"#, to: moved).get().observer == moved.observer)
        #expect(try apply(#"{"type":"view","observer":null}"#, to: moved).get().observer == nil)
        // The acknowledgement carries it, and a client reads it back.
        let line = FeedMessage.viewAcknowledgement(moved, declinationDeg: 2.345)
        #expect(line.contains(#""observer":{"lat":52.1,"lon":4.6,"alt_m":30}"#))
        #expect(FeedMessage.viewAcknowledgement(RadarView(), declinationDeg: nil).contains(#""observer":null"#))
    }

    @Test func theAcknowledgementCarriesTheDeclinationToTwoDecimals() {
        #expect(
            FeedMessage.viewAcknowledgement(RadarView(), declinationDeg: -12.3456)
                == #"{"type":"view","view":"# + RadarView().json + #","declination_deg":-12.35}"# + "\n")
        #expect(
            FeedMessage.viewAcknowledgement(RadarView(), declinationDeg: nil).hasSuffix(
                #","declination_deg":null}"# + "\n"))
        #expect(FeedMessage.viewAcknowledgement(RadarView(), declinationDeg: .nan).contains(#""declination_deg":null"#))
    }

    @Test func refusesInvalidUTF8() {
        let result = FeedMessage.apply(commandLine: [0x7B, 0xFF, 0x7D], to: RadarView())
        #expect(result == .failure(FeedCommandError("command is not valid UTF-8")))
    }

    @Test func helloAndErrorAreValidJSONLines() throws {
        let hello = FeedHello(
            receiver: FeedPosition(latitude: 52, longitude: 4.4, altitudeMetres: 3),
            source: "rtlsdr", frameIntervalSeconds: 1, view: RadarView()
        ).jsonLine
        #expect(hello.hasSuffix("\n"))
        #expect(hello.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(hello.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "hello")
        #expect((object["view"] as? [String: Any])?["min_alt_ft"] is NSNull)
        #expect(object["declination_deg"] is NSNull)
        let noReceiver = FeedHello(receiver: nil, source: "none", frameIntervalSeconds: 0.5, view: RadarView()).jsonLine
        #expect(noReceiver.contains("\"receiver\":null"))
        let east = FeedHello(
            receiver: nil, source: "none", frameIntervalSeconds: 1, view: RadarView(), declinationDeg: 7.126
        ).jsonLine
        #expect(east.hasSuffix(#","declination_deg":7.13}"# + "\n"))
        let error = FeedMessage.error("bad \"quote\"\nnewline")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(error.utf8)) as? [String: Any])
        #expect(decoded["message"] as? String == "bad \"quote\"\nnewline")
    }
}

@Suite struct JSONObjectWriterTests {
    @Test func writesNullsRoundsNumbersAndEscapes() throws {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("a", nil as String?)
        w.add("b", -0.00001, decimals: 2)
        w.add("c", 12.3456, decimals: 2)
        w.add("d", 90.0, decimals: 1)
        w.add("e", Double.nan, decimals: 1)
        w.add("f", "tab\there\u{1}\u{2028}é")
        w.add("g", true)
        #expect(w.result == #"{"a":null,"b":0,"c":12.35,"d":90,"e":null,"f":"tab\there\u0001\u2028é","g":true}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.result.utf8)) as? [String: Any])
        #expect(object["f"] as? String == "tab\there\u{1}\u{2028}é")
    }
}

@Suite struct JSONNumberBoundsTests {
    @Test func hugeFiniteNumbersStayValidJSON() throws {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("a", 1e308, decimals: 3)
        w.add("b", -1.7e308, decimals: 5)
        w.add("c", 123_456_789_012_345_678.0, decimals: 1)
        w.addAngle("d", 1e308, decimals: 2)
        w.add("e", Double.infinity, decimals: 1)
        #expect(!w.result.contains("inf"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.result.utf8)) as? [String: Any])
        #expect((object["a"] as? Double) == 1e308)
        #expect((object["b"] as? Double) == -1.7e308)
        #expect(object["e"] is NSNull)
    }
}

@Suite struct FeedAngleTests {
    @Test func anglesStayBelow360AfterRounding() {
        var w = JSONObjectWriter(nullForMissing: true)
        w.addAngle("a", 359.999, decimals: 2)
        w.addAngle("b", 359.994, decimals: 2)
        w.addAngle("c", nil, decimals: 2)
        #expect(w.result == #"{"a":0,"b":359.99,"c":null}"#)
    }
}
