import MQTT
import Testing

@Suite struct MQTTOutboxTests {
    func message(_ topic: String, bytes: Int = 10, retain: Bool = false, expiry: UInt32? = nil) -> MQTTMessage {
        MQTTMessage(topic: topic, payload: Array(repeating: 1, count: bytes), retain: retain, expirySeconds: expiry)
    }

    func drain(_ outbox: inout MQTTOutbox, at now: Double = 0) -> [String] {
        var topics: [String] = []
        while let next = outbox.pop(at: now) { topics.append(next.message.topic) }
        return topics
    }

    @Test func whenFullTheOldestMakeRoomAndAreCounted() {
        var outbox = MQTTOutbox(capacity: 3)
        for index in 0..<5 { outbox.push(message("t\(index)"), at: 0) }
        #expect(outbox.count == 3)
        #expect(outbox.counters.dropped == 2)
        #expect(outbox.counters.queued == 5)
        #expect(drain(&outbox) == ["t2", "t3", "t4"])
        #expect(outbox.count == 0 && outbox.bytes == 0)
    }

    @Test func theByteLimitBindsToo() {
        var outbox = MQTTOutbox(capacity: 100, byteCapacity: 250)
        for index in 0..<4 { outbox.push(message("t\(index)", bytes: 100), at: 0) }
        #expect(outbox.bytes == 200)
        #expect(outbox.counters.dropped == 2)
        #expect(drain(&outbox) == ["t2", "t3"])
    }

    @Test func aRetainedValueReplacesTheOneWaitingForItsTopic() {
        var outbox = MQTTOutbox()
        outbox.push(message("a", retain: true), at: 0)
        outbox.push(message("b"), at: 0)
        outbox.push(MQTTMessage(topic: "a", payload: [9], retain: true), at: 1)
        #expect(outbox.counters.superseded == 1)
        #expect(outbox.count == 2)
        let first = outbox.pop(at: 1)
        let second = outbox.pop(at: 1)
        #expect(first?.message.topic == "b")
        #expect(second?.message.payload == [9])
        // Plain messages of one topic all stay.
        outbox.push(message("c"), at: 2)
        outbox.push(message("c"), at: 2)
        #expect(outbox.count == 2)
    }

    @Test func messagesThatExpiredWhileWaitingAreDroppedAndCounted() {
        var outbox = MQTTOutbox()
        outbox.push(message("short", expiry: 5), at: 100)
        outbox.push(message("long", expiry: 60), at: 100)
        outbox.push(message("forever"), at: 100)
        #expect(drain(&outbox, at: 110) == ["long", "forever"])
        #expect(outbox.counters.expired == 1)
    }

    @Test func aMessagePutBackLeavesFirst() {
        var outbox = MQTTOutbox()
        outbox.push(message("a"), at: 0)
        outbox.push(message("b"), at: 0)
        let first = outbox.pop(at: 0)!
        outbox.pushBack(first.message, queuedAt: first.queuedAt)
        #expect(drain(&outbox) == ["a", "b"])
        // At the very front of a fresh queue too.
        outbox.push(message("c"), at: 0)
        outbox.pushBack(message("z"), queuedAt: 0)
        #expect(drain(&outbox) == ["z", "c"])
    }

    @Test func memoryFollowsWhatWaitsNotWhatPassed() {
        var outbox = MQTTOutbox(capacity: 10)
        for round in 0..<10_000 {
            outbox.push(message("t\(round % 7)", retain: round % 3 == 0), at: Double(round))
            if round % 2 == 0 { _ = outbox.pop(at: Double(round)) }
        }
        #expect(outbox.count <= 10)
        #expect(drain(&outbox, at: 10_000).count <= 10)
    }
}
