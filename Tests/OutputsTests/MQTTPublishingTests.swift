import Foundation
import ModeS
import Outputs
import ReceiverNetwork
import TestSupport
import Testing
import Tracking

/// The MQTT output's decisions, with the time given: when batches leave and how they are cut,
/// when each aircraft is published and cleared, what Home Assistant is told.
@Suite struct MQTTPublishingTests {
    static let frame = OutputTestFrames.extendedSquitter("8D4840D6202CC371C32CE0576098", timestamp: 1234)

    @Test func batchesLeaveOncePerIntervalWithEveryFrameSinceTheLast() throws {
        var batcher = BeastBatcher(interval: 0.25)
        #expect(batcher.take(at: 0).isEmpty, "nothing waits")
        for _ in 0..<3 { batcher.add(Self.frame) }
        let first = batcher.take(at: 10)
        #expect(first.count == 1)
        batcher.add(Self.frame)
        #expect(batcher.take(at: 10.1).isEmpty, "a quarter second has not passed")
        batcher.add(Self.frame)
        let second = batcher.take(at: 10.25)
        #expect(second.count == 1)
        let one = try BeastBatch.decode(first[0])
        let two = try BeastBatch.decode(second[0])
        #expect(one.sequence == 0 && one.framesBefore == 0 && one.frames.count == 3)
        #expect(two.sequence == 1 && two.framesBefore == 3 && two.frames.count == 2)
        #expect(two.frames[0].bits == Self.frame.bits && two.frames[0].timestamp == 1234)
        #expect(batcher.batches == 2 && batcher.frames == 5)
    }

    /// The wall clock stepped back an hour: batches and aircraft keep leaving rather than
    /// waiting an hour for it to catch up.
    @Test func aClockSteppedBackDoesNotHoldPublishingBack() {
        var batcher = BeastBatcher(interval: 0.25)
        batcher.add(Self.frame)
        #expect(batcher.take(at: 10_000).count == 1)
        batcher.add(Self.frame)
        #expect(batcher.take(at: 6_400).count == 1)
        batcher.add(Self.frame)
        #expect(batcher.take(at: 6_400.1).isEmpty, "a quarter second has not passed since")
        var schedule = AircraftPublications(minimumInterval: 1, expireAfter: 60)
        var state = TestSky.aircraft(icao: 0x4840D6, latitude: 52, longitude: 4, altitudeFt: 1000, lastSeen: 10_000)
        schedule.update(state)
        #expect(schedule.due(at: 10_000).states.count == 1)
        state.lastSeen = 6_400
        schedule.update(state)
        #expect(schedule.due(at: 6_400).states.count == 1)
    }

    @Test func aBurstIsCutIntoPayloadsASubscriberTakes() throws {
        var batcher = BeastBatcher()
        let count = 10_000
        for _ in 0..<count { batcher.add(Self.frame) }
        let payloads = batcher.take(at: 0)
        #expect(payloads.count > 1)
        var expectedBefore: UInt32 = 0
        for (index, payload) in payloads.enumerated() {
            #expect(payload.count <= BeastBatcher.maximumPayload)
            let batch = try BeastBatch.decode(payload)
            #expect(batch.sequence == UInt32(index) && batch.framesBefore == expectedBefore)
            expectedBefore += UInt32(batch.frames.count)
        }
        #expect(expectedBefore == UInt32(count))
    }

    @Test func framesBeyondTheCapacityAreDroppedAndCounted() {
        var batcher = BeastBatcher()
        for _ in 0..<(BeastBatcher.capacity + 10) { batcher.add(Self.frame) }
        #expect(batcher.dropped == 10)
        #expect(batcher.waiting == BeastBatcher.capacity)
    }

    @Test func eachAircraftAtMostOnceASecondWithItsLatestState() {
        var schedule = AircraftPublications(minimumInterval: 1, expireAfter: 60)
        var state = TestSky.aircraft(icao: 0x4840D6, latitude: 52, longitude: 4, altitudeFt: 1000, lastSeen: 100)
        schedule.update(state)
        #expect(schedule.due(at: 100).states.map(\.icao) == [0x4840D6])
        state.altitudeBaroFt = 1100
        schedule.update(state)
        state.altitudeBaroFt = 1200
        state.lastSeen = 100.5
        schedule.update(state)
        #expect(schedule.due(at: 100.5).states.isEmpty, "within the second")
        let later = schedule.due(at: 101)
        #expect(later.states.count == 1 && later.states[0].altitudeBaroFt == 1200)
        #expect(schedule.due(at: 102).states.isEmpty, "nothing new")
    }

    @Test(.computeBound) func noMoreAircraftAreScheduledThanTheTrackerHolds() {
        var schedule = AircraftPublications(minimumInterval: 1, expireAfter: 60)
        for icao in 0..<UInt32(AircraftPublications.capacity + 10) {
            schedule.update(TestSky.aircraft(icao: icao, latitude: 52, longitude: 4, altitudeFt: 1000, lastSeen: 100))
        }
        #expect(schedule.count == AircraftPublications.capacity)
        #expect(schedule.dropped == 10)
        // An aircraft already scheduled is still updated.
        schedule.update(TestSky.aircraft(icao: 5, latitude: 52, longitude: 4, altitudeFt: 2000, lastSeen: 101))
        #expect(schedule.dropped == 10)
        #expect(schedule.due(at: 101).states.first { $0.icao == 5 }?.altitudeBaroFt == 2000)
    }

    @Test func anAircraftNotHeardForAMinuteIsClearedOnce() {
        var schedule = AircraftPublications(minimumInterval: 1, expireAfter: 60)
        var anonymous = TestSky.aircraft(icao: 0xABCDEF, latitude: 52, longitude: 4, altitudeFt: 1000, lastSeen: 100)
        anonymous.addressType = .adsbOther
        schedule.update(TestSky.aircraft(icao: 0x123456, latitude: 52, longitude: 4, altitudeFt: 1000, lastSeen: 100))
        schedule.update(anonymous)
        #expect(schedule.due(at: 100).states.count == 2)
        schedule.update(TestSky.aircraft(icao: 0x123456, latitude: 52, longitude: 4, altitudeFt: 1000, lastSeen: 150))
        #expect(schedule.due(at: 150).expired.isEmpty)
        #expect(schedule.due(at: 160.5).expired == ["~abcdef"])
        #expect(schedule.due(at: 211).expired == ["123456"])
        #expect(schedule.due(at: 300).expired.isEmpty)
        #expect(schedule.count == 0)
    }

    @Test func homeAssistantLearnsFourSensorsOfOneDevice() throws {
        let sensors = HomeAssistantSensors(
            topics: ReceiverTopics(name: "attic.pi"), version: "aviator-adsb 1",
            observer: TestSky.observer, rangeKm: 50)
        let messages = sensors.discoveryMessages
        #expect(messages.count == 4)
        for message in messages {
            #expect(message.retain)
            #expect(
                message.topic.hasPrefix("homeassistant/sensor/aviator_attic_pi/") && message.topic.hasSuffix("/config"))
            let config = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
            #expect(config["state_topic"] as? String == "aviator/attic.pi/sensors")
            #expect(config["availability_topic"] as? String == "aviator/attic.pi/status")
            #expect((config["unique_id"] as? String)?.hasPrefix("aviator_attic_pi_") == true)
            #expect(((config["device"] as? [String: Any])?["identifiers"] as? [String]) == ["aviator_attic_pi"])
        }
    }

    @Test func theSensorsCountAircraftInRangeAndNameTheNearest() throws {
        let sensors = HomeAssistantSensors(
            topics: ReceiverTopics(name: "pi"), version: "v", observer: TestSky.observer, rangeKm: 50)
        let near = TestSky.aircraft(icao: 1, latitude: 52.05, longitude: 4.4, altitudeFt: 3000)
        let farther = TestSky.aircraft(icao: 2, latitude: 52.2, longitude: 4.4, altitudeFt: 30000)
        let outside = TestSky.aircraft(icao: 3, latitude: 53.5, longitude: 4.4, altitudeFt: 30000)
        let text = sensors.state(of: [farther, near, outside], now: 100)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(state["aircraft"] as? Int == 2)
        #expect(state["nearest_callsign"] as? String == near.callsign)
        let distance = try #require(state["nearest_distance_km"] as? Double)
        #expect(distance > 5 && distance < 6.5, "\(distance)")
        let elevation = try #require(state["nearest_elevation_deg"] as? Double)
        #expect(elevation > 5 && elevation < 12, "\(elevation)")
        let empty = try #require(
            try JSONSerialization.jsonObject(with: Data(sensors.state(of: [], now: 100).utf8)) as? [String: Any])
        #expect(empty["aircraft"] as? Int == 0)
        #expect(empty["nearest_distance_km"] is NSNull)
    }
}
