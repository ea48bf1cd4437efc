import ModeS
import ReceiverNetwork
import Testing

@Suite struct ReceiverTopicsTests {
    @Test func topicsLiveUnderTheReceiversName() {
        let topics = ReceiverTopics(name: "home-pi")
        #expect(topics.beast == "aviator/home-pi/beast")
        #expect(topics.status == "aviator/home-pi/status")
        #expect(topics.receiver == "aviator/home-pi/receiver")
        #expect(topics.aircraft("4840d6") == "aviator/home-pi/aircraft/4840d6")
        #expect(ReceiverTopics.parse("aviator/home-pi/beast")! == ("home-pi", "beast"))
        #expect(ReceiverTopics.parse("region/aviator/x.y/receiver")! == ("x.y", "receiver"))
        #expect(ReceiverTopics.parse("beast") == nil)
        #expect(ReceiverTopics.parse("aviator/+/beast") == nil)
        #expect(ReceiverTopics.parse("aviator//beast") == nil)
    }

    @Test func aFrameFilterEndsInBeastAndGivesTheAnnouncementFilter() {
        #expect(ReceiverTopics.problem(beastFilter: "aviator/+/beast") == nil)
        #expect(ReceiverTopics.problem(beastFilter: "aviator/alpha/beast") == nil)
        #expect(ReceiverTopics.problem(beastFilter: "eu/+/aviator/+/beast") == nil)
        for bad in ["aviator/#", "aviator/+/status", "beast", "aviator/a b/beast", "a+/x/beast", "/+/beast"] {
            #expect(ReceiverTopics.problem(beastFilter: bad) != nil, "\(bad)")
        }
        #expect(ReceiverTopics.receiverFilter(forBeastFilter: "aviator/+/beast") == "aviator/+/receiver")
    }

    @Test func namesAreOneSafeTopicLevel() {
        #expect(ReceiverName.problem("pi-4.attic_2") == nil)
        for bad in ["", "a/b", "a+b", "a#", "a b", "é", String(repeating: "x", count: 65)] {
            #expect(ReceiverName.problem(bad) != nil, "\(bad)")
        }
        #expect(ReceiverName.fromHostName("raspberrypi.local") == "raspberrypi")
        #expect(ReceiverName.fromHostName("my host+1") == "my-host-1")
        #expect(ReceiverName.fromHostName("") == "receiver")
        #expect(ReceiverName.sourceLabel("pi") == "mqtt pi")
        #expect(ReceiverName.isNetworkSource("mqtt pi") && !ReceiverName.isNetworkSource("replay"))
    }
}

@Suite struct ReceiverAnnouncementTests {
    @Test func thePositionLeavesRoundedToATenthOfADegree() throws {
        let announcement = ReceiverAnnouncement(
            position: GeoPoint(latitude: 51.98317, longitude: 4.38629),
            version: "aviator-adsb 1", sources: "replay")
        #expect(announcement.json == #"{"lat":52,"lon":4.4,"version":"aviator-adsb 1","sources":"replay"}"#)
        let read = try ReceiverAnnouncement.decode(Array(announcement.json.utf8))
        #expect(abs(read.position!.latitude - 52.0) < 1e-9 && abs(read.position!.longitude - 4.4) < 1e-9)
        #expect(read.version == "aviator-adsb 1" && read.sources == "replay")
        let none = ReceiverAnnouncement(position: nil, version: "v", sources: "s")
        #expect(try ReceiverAnnouncement.decode(Array(none.json.utf8)).position == nil)
    }

    @Test func unknownFieldsAreIgnoredAndControlCharactersRemoved() throws {
        let read = try ReceiverAnnouncement.decode(Array(#"{"lat":1,"lon":2,"extra":[1],"version":"a\u0007b"}"#.utf8))
        #expect(read.version == "ab")
        #expect(read.sources == "")
    }

    @Test func anythingElseIsRefused() {
        let cases = [
            "", "[]", "null", #"{"lat":91,"lon":0}"#, #"{"lat":1}"#, #"{"lat":"1","lon":2}"#, #"{"lat":true,"lon":2}"#,
            #"{"lat":1,"lon":181}"#, #"{"version":5}"#, "{\"version\":\"\(String(repeating: "v", count: 300))\"}"
        ]
        for text in cases {
            #expect(throws: NetworkPayloadError.self, "\(text)") { try ReceiverAnnouncement.decode(Array(text.utf8)) }
        }
        let huge = Array("{\"version\":\"\(String(repeating: " ", count: 5000))\"}".utf8)
        #expect(throws: NetworkPayloadError.oversized(huge.count, limit: ReceiverAnnouncement.maximumPayload)) {
            try ReceiverAnnouncement.decode(huge)
        }
    }
}
