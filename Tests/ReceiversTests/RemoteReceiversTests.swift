import MQTT
import ModeS
import Pipeline
import ReceiverNetwork
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// What an MQTT input makes of the network's messages: each receiver its own source and
/// counters, missed batches counted from the sequence numbers, garbage counted and dropped.
@Suite struct RemoteReceiversTests {
    static let hexes = ["8D40621D58C382D690C8AC2863A7", "8D40621D58C386435CC412692AD6", "8D4840D6202CC371C32CE0576098"]

    static func batch(_ sequence: UInt32, before: UInt32, hexes: [String] = hexes) -> [UInt8] {
        var payload = BeastBatch.header(sequence: sequence, framesBefore: before)
        for hex in hexes {
            BeastEncoder.append(
                Frame(bits: ModeSBits(hex: hex)!, address: 0, timestamp: 99, signalLevel: -10), to: &payload)
        }
        return payload
    }

    @Test func aBatchBecomesCheckedFramesOfItsReceiversSource() throws {
        var receivers = RemoteReceivers(ownName: "self")
        let deliveryReceived = receivers.receive(
            topic: "aviator/alpha/beast", payload: Self.batch(0, before: 0), at: 1000)
        let delivery = try #require(deliveryReceived)
        #expect(delivery.label == "mqtt alpha")
        #expect(delivery.frames.map(\.bits) == Self.hexes.map { ModeSBits(hex: $0)! })
        #expect(delivery.frames.allSatisfy { $0.timestamp == 99 && $0.parityVerified })
        // A new receiver is announced without a position until it says where it is.
        #expect(delivery.position == .some(nil))
        #expect(receivers.counters.first?.counters.frames == 3)
        let own = receivers.receive(topic: "aviator/self/beast", payload: Self.batch(0, before: 0), at: 1000)
        #expect(own == nil)
        #expect(receivers.ownMessages == 1)
    }

    /// A sender whose frame counts run backwards (wrapping to four billion missed frames a
    /// batch) neither traps the counters nor inflates them.
    @Test func frameCountsNoBatchCouldHoldAreNotCounted() throws {
        var receivers = RemoteReceivers(ownName: nil)
        var gaps: [String] = []
        for step in 0..<1_000 {
            let payload = Self.batch(UInt32(step * 2), before: UInt32(truncatingIfNeeded: -step), hexes: [])
            if let gap = receivers.receive(topic: "aviator/evil/beast", payload: payload, at: Double(step))?.gap {
                gaps.append(gap)
            }
        }
        let counters = try #require(receivers.counters.first?.counters)
        #expect(counters.missedBatches == 999)
        #expect(counters.missedFrames == 0)
        #expect(gaps.count == 999)
        #expect(gaps.first == "batch 2 after 0: 1 missed, with a frame count they could not hold")
    }

    @Test func aPayloadTheClientDidNotKeepIsCountedAsOversized() throws {
        var receivers = RemoteReceivers(ownName: nil)
        let delivery = receivers.receive(topic: "aviator/big/beast", payload: [], size: 300_000_000, at: 1)
        #expect(
            delivery?.problem?.description
                == "a payload of 300000000 bytes, over the limit of \(BeastBatch.maximumPayload)")
        _ = receivers.receive(topic: "aviator/big/receiver", payload: [], size: 5_000, at: 2)
        let counters = try #require(receivers.counters.first?.counters)
        #expect(counters.oversized == 2 && counters.malformed == 0 && counters.batches == 0)
    }

    @Test func gapsInTheSequenceCountTheBatchesAndFramesMissed() throws {
        var receivers = RemoteReceivers(ownName: nil)
        _ = receivers.receive(topic: "aviator/alpha/beast", payload: Self.batch(0, before: 0), at: 1)
        _ = receivers.receive(topic: "aviator/alpha/beast", payload: Self.batch(1, before: 3), at: 2)
        // Batches 2, 3 and 4 (12 frames) never came.
        _ = receivers.receive(topic: "aviator/alpha/beast", payload: Self.batch(5, before: 18), at: 3)
        var counters = try #require(receivers.counters.first?.counters)
        #expect(counters.batches == 3 && counters.frames == 9)
        #expect(counters.missedBatches == 3 && counters.missedFrames == 12)
        // The receiver restarted: numbering from zero again is no loss.
        _ = receivers.receive(topic: "aviator/alpha/beast", payload: Self.batch(0, before: 0), at: 4)
        counters = try #require(receivers.counters.first?.counters)
        #expect(counters.restarts == 1 && counters.missedBatches == 3)
        #expect(
            counters.summary(label: "mqtt alpha")
                == "mqtt alpha: 12 frames in 4 batches, 0 failed the parity check, 0 malformed, 0 oversized, 3 batches (12 frames) missed, 1 restarts"
        )
    }

    @Test func twoPublishersUnderOneNameAreSuspectedFromTheirRestarts() throws {
        var receivers = RemoteReceivers(ownName: nil)
        func gap(_ sequence: UInt32, at time: Double) -> String? {
            receivers.receive(topic: "aviator/pi/beast", payload: Self.batch(sequence, before: sequence * 3), at: time)?
                .gap
        }
        _ = gap(5000, at: 0)
        // A receiver started again once: no suspicion.
        #expect(gap(0, at: 100) == "batch 0 after 5000: started again")
        #expect(gap(1, at: 101) == nil)
        // Two receivers both called "pi", one near 5000, one near 0: every other batch goes back.
        #expect(gap(5001, at: 102) == "batch 5001 after 1: 4999 missed")
        #expect(
            gap(2, at: 103) == "batch 2 after 5001: started again within a minute of the last restart; "
                + "two receivers may be publishing under the same name")
        // Restarts far apart are ordinary restarts again.
        _ = gap(9000, at: 200)
        #expect(gap(0, at: 300) == "batch 0 after 9000: started again")
    }

    @Test func garbageIsCountedAgainstItsReceiverAndChangesNothingElse() throws {
        var receivers = RemoteReceivers(ownName: nil)
        _ = receivers.receive(topic: "aviator/alpha/beast", payload: Self.batch(0, before: 0), at: 1)
        let garbage: [[UInt8]] = [
            [], [0xFF], Array("hello".utf8), Self.batch(1, before: 3) + [0x1A],
            Array(repeating: 0x1A, count: BeastBatch.maximumPayload + 1)
        ]
        for payload in garbage {
            let deliveryReceived = receivers.receive(topic: "aviator/alpha/beast", payload: payload, at: 2)
            let delivery = try #require(deliveryReceived)
            #expect(delivery.frames.isEmpty && delivery.problem != nil)
        }
        _ = receivers.receive(topic: "aviator/alpha/receiver", payload: Array("{\"lat\":\"x\"}".utf8), at: 2)
        _ = receivers.receive(topic: "aviator/+/beast", payload: Self.batch(0, before: 0), at: 2)
        _ = receivers.receive(topic: "nothing", payload: [], at: 2)
        let counters = try #require(receivers.counters.first?.counters)
        #expect(counters.malformed == 5 && counters.oversized == 1)
        #expect(counters.batches == 1 && counters.frames == 3 && counters.missedBatches == 0)
        #expect(receivers.badTopics == 2)
        #expect(receivers.count == 1)
        // The next good batch follows on as if nothing happened.
        _ = receivers.receive(topic: "aviator/alpha/beast", payload: Self.batch(1, before: 3), at: 3)
        #expect(receivers.counters.first?.counters.missedBatches == 0)
    }

    @Test func theAnnouncementGivesTheReceiversPositionAndStatusItsState() throws {
        var receivers = RemoteReceivers(ownName: nil)
        let announcedReceived = receivers.receive(
            topic: "aviator/beta/receiver",
            payload: Array(#"{"lat":52.3,"lon":4.8,"version":"v"}"#.utf8), at: 1)
        let announced = try #require(announcedReceived)
        let position = try #require(announced.position ?? nil)
        #expect(abs(position.latitude - 52.3) < 1e-6 && abs(position.longitude - 4.8) < 1e-6)
        let clearedReceived = receivers.receive(topic: "aviator/beta/receiver", payload: [], at: 2)
        let cleared = try #require(clearedReceived)
        #expect(cleared.position == .some(nil))
        let offlineReceived = receivers.receive(topic: "aviator/beta/status", payload: Array("offline".utf8), at: 3)
        let offline = try #require(offlineReceived)
        #expect(offline.online == false)
        #expect(receivers.counters.first?.counters.online == false)
        let againReceived = receivers.receive(topic: "aviator/beta/status", payload: Array("offline".utf8), at: 4)
        let again = try #require(againReceived)
        #expect(again.online == nil, "no change")
    }
}

/// A network flooded with made-up names: the table stays bounded and a real receiver still
/// gets in, the longest-silent one giving way.
@Suite struct ForgettingReceiversTests {
    @Test func madeUpNamesDoNotShutOutALaterReceiver() throws {
        var receivers = RemoteReceivers(ownName: nil)
        for index in 0..<RemoteReceivers.maximumReceivers {
            _ = receivers.receive(topic: "aviator/fake\(index)/status", payload: Array("online".utf8), at: 1)
        }
        #expect(receivers.count == RemoteReceivers.maximumReceivers)
        let deliveryReceived = receivers.receive(
            topic: "aviator/real/beast", payload: RemoteReceiversTests.batch(0, before: 0), at: 2)
        let delivery = try #require(deliveryReceived, "a real receiver after the flood is heard")
        #expect(delivery.frames.count == 3)
        #expect(receivers.count == RemoteReceivers.maximumReceivers)
    }

    @Test func aSilentReceiverIsForgottenAndTheLongestSilentGivesWayWhenFull() throws {
        var receivers = RemoteReceivers(ownName: nil)
        let online = Array("online".utf8)
        for index in 0..<RemoteReceivers.maximumReceivers {
            _ = receivers.receive(topic: "aviator/fake\(index)/status", payload: online, at: Double(index) / 10_000)
        }
        // fake0 is the longest silent once fake1 is heard again.
        _ = receivers.receive(topic: "aviator/fake0/status", payload: online, at: 3)
        let newcomerReceived = receivers.receive(topic: "aviator/new/status", payload: online, at: 4)
        let newcomer = try #require(newcomerReceived)
        #expect(newcomer.forgotten == ["mqtt fake1"])
        #expect(newcomer.displaced?.label == "mqtt fake1")
        #expect(receivers.displacedReceivers == 1 && receivers.forgottenReceivers == 0)
        // A day after, every one of them is forgotten, their counts kept summed.
        _ = receivers.receive(topic: "aviator/new/beast", payload: RemoteReceiversTests.batch(0, before: 0), at: 10)
        let laterReceived = receivers.receive(
            topic: "aviator/last/status", payload: online, at: 10 + RemoteReceivers.forgetAfter + 1)
        let later = try #require(laterReceived)
        #expect(later.forgotten.count == RemoteReceivers.maximumReceivers)
        #expect(receivers.count == 1 && receivers.forgottenReceivers == RemoteReceivers.maximumReceivers)
        #expect(receivers.forgottenCounters.frames == 3)
    }

    @Test func theAnnouncementIsCheckedAgainstTheReceiversOwnFramesOnceAMinute() throws {
        var receivers = RemoteReceivers(ownName: nil)
        func batch(_ sequence: UInt32, at time: Double) -> RemoteReceivers.Delivery? {
            let pair = Array(RemoteReceiversTests.hexes.prefix(2))
            return receivers.receive(
                topic: "aviator/far/beast",
                payload: RemoteReceiversTests.batch(sequence, before: sequence * 2, hexes: pair),
                at: time)
        }
        _ = receivers.receive(topic: "aviator/far/receiver", payload: Array(#"{"lat":-33.9,"lon":151.2}"#.utf8), at: 0)
        let distance = try #require(batch(0, at: 1)?.contradiction)
        #expect(distance > 15_000, "\(distance) km")
        // Not again within the minute...
        #expect(batch(1, at: 30)?.contradiction == nil)
        // ...but at once after a new announcement, a change the delivery reports.
        let moved = receivers.receive(
            topic: "aviator/far/receiver", payload: Array(#"{"lat":52.3,"lon":4.8}"#.utf8), at: 31)
        #expect(moved?.moved == true)
        #expect(batch(2, at: 32)?.contradiction == nil, "near the aircraft: consistent")
        #expect(receivers.counters.first?.counters.contradictions == 1)
    }
}

/// Frames from another receiver are positioned from where that receiver is.
@Suite struct SourcePositionTests {
    /// An even/odd airborne pair of one aircraft at about 52.27°N 3.94°E.
    static let pair = ["8D40621D58C382D690C8AC2863A7", "8D40621D58C386435CC412692AD6"].map {
        Frame(bits: ModeSBits(hex: $0)!, address: 0x40621D)
    }

    @Test func aRemoteReceiversFramesAreRangeCheckedFromItsOwnPosition() throws {
        // This receiver is 1,500 km away: the aircraft is out of its range.
        let here = WiredTracker(receiver: GeoPoint(latitude: 40, longitude: 10), clock: { 1000 })
        for frame in Self.pair { here.accept(frame, at: 1000) }
        #expect(here.snapshot().aircraft.first?.position == nil)

        let network = WiredTracker(receiver: GeoPoint(latitude: 40, longitude: 10), clock: { 1000 })
        network.setPosition(GeoPoint(latitude: 52.3, longitude: 4.7), ofSource: "mqtt alpha")
        for frame in Self.pair { network.accept(frame, at: 1000, from: "mqtt alpha") }
        let position = try #require(network.snapshot().aircraft.first?.position)
        #expect(abs(position.latitude - 52.2658) < 0.001 && abs(position.longitude - 3.9389) < 0.001, "\(position)")

        // A receiver that has not said where it is: global decoding without a range check.
        let unknown = WiredTracker(receiver: GeoPoint(latitude: 40, longitude: 10), clock: { 1000 })
        unknown.setPosition(nil, ofSource: "mqtt beta")
        for frame in Self.pair { unknown.accept(frame, at: 1000, from: "mqtt beta") }
        #expect(unknown.snapshot().aircraft.first?.position != nil)
    }
}

/// The MQTT input's log: what the network says about each receiver, never a line per batch.
@Suite struct MQTTInputLogTests {
    @Test func breaksInBatchNumbersAndStatusChangesAreLoggedAtMostTenTimesInTenSeconds() throws {
        let log = LogRecorder()
        let input = MQTTInput(
            configuration: MQTTConfiguration(
                broker: MQTTBroker(host: "127.0.0.1", port: 1, usesTLS: false),
                clientID: "test"),
            ownName: nil, logger: log.logger)
        let tracker = WiredTracker(receiver: nil)
        // Two publishers named "pi" interleaving their batches, and a status flapping.
        for index in 0..<200 {
            let sequence = UInt32(index / 2) + (index.isMultiple(of: 2) ? 0 : 5000)
            input.handle(
                MQTTReceivedMessage(
                    topic: "aviator/pi/beast", payload: RemoteReceiversTests.batch(sequence, before: 0),
                    retained: false), into: tracker)
            input.handle(
                MQTTReceivedMessage(
                    topic: "aviator/pi/status", payload: Array((index.isMultiple(of: 2) ? "online" : "offline").utf8),
                    retained: false), into: tracker)
        }
        let lines = log.lines.map(\.text)
        #expect(lines.filter { $0.hasPrefix("mqtt pi: batch") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("mqtt pi is ") }.count == 10)
        // The counters keep every one of them.
        let counters = try #require(input.receiverCounters.first?.counters)
        #expect(counters.batches == 200 && counters.restarts == 99)
    }

    @Test func aChangedAnnouncementIsLogged() {
        let log = LogRecorder()
        let input = MQTTInput(
            configuration: MQTTConfiguration(
                broker: MQTTBroker(host: "127.0.0.1", port: 1, usesTLS: false), clientID: "test"),
            ownName: nil, logger: log.logger)
        let tracker = WiredTracker(receiver: nil)
        for json in [#"{"lat":52.3,"lon":4.8}"#, #"{"lat":52.3,"lon":4.8}"#, #"{"lat":-33.9,"lon":151.2}"#] {
            input.handle(
                MQTTReceivedMessage(topic: "aviator/beta/receiver", payload: Array(json.utf8), retained: true),
                into: tracker)
        }
        let lines = log.lines.map(\.text).filter { $0.hasPrefix("mqtt beta") && $0.contains("position") }
        #expect(lines.count == 1, "\(lines)")
        #expect(!log.text.contains("151.2") && !log.text.contains("52.3"), "never the position itself")
    }

    @Test func anAnnouncementTheReceiversOwnFramesContradictIsFlagged() {
        let log = LogRecorder()
        let input = MQTTInput(
            configuration: MQTTConfiguration(
                broker: MQTTBroker(host: "127.0.0.1", port: 1, usesTLS: false), clientID: "test"),
            ownName: nil, logger: log.logger)
        let tracker = WiredTracker(receiver: nil)
        let pair = Array(RemoteReceiversTests.hexes.prefix(2))
        // Near the aircraft (52.27°N 3.94°E): nothing to say.
        for (name, json) in [("near", #"{"lat":52.3,"lon":4.8}"#), ("far", #"{"lat":-33.9,"lon":151.2}"#)] {
            input.handle(
                MQTTReceivedMessage(topic: "aviator/\(name)/receiver", payload: Array(json.utf8), retained: true),
                into: tracker)
            input.handle(
                MQTTReceivedMessage(
                    topic: "aviator/\(name)/beast", payload: RemoteReceiversTests.batch(0, before: 0, hexes: pair),
                    retained: false), into: tracker)
        }
        let flagged = log.problems.filter { $0.contains("from its announced position") }
        #expect(flagged.count == 1 && flagged.first?.hasPrefix("mqtt far: ") == true, "\(log.text)")
        #expect(!log.text.contains("151.2") && !log.text.contains("33.9"), "never the position itself")
    }

    @Test func theStatisticsLineStaysShortWithTwentyThousandReceivers() {
        let log = LogRecorder()
        let input = MQTTInput(
            configuration: MQTTConfiguration(
                broker: MQTTBroker(host: "127.0.0.1", port: 1, usesTLS: false), clientID: "test"),
            ownName: nil, logger: log.logger)
        let tracker = WiredTracker(receiver: nil, clock: { 10 })
        for index in 0..<RemoteReceivers.maximumReceivers + 10 {
            input.handle(
                MQTTReceivedMessage(
                    topic: "aviator/r\(index)/beast", payload: RemoteReceiversTests.batch(0, before: 0),
                    retained: false), into: tracker, at: 1, instant: .now)
        }
        // Ten receivers gave way within the throttle's interval: one warning line.
        #expect(
            log.problems == [
                "mqtt-in 127.0.0.1:1: 20000 receivers known; mqtt r0, silent for 0 s, gave way to mqtt r20000"
            ])
        let summary = input.summary
        #expect(summary.utf8.count < 4_000, "\(summary.utf8.count) bytes")
        #expect(summary.contains("19980 more receivers: 59940 frames in 19980 batches"), "\(summary)")
        #expect(summary.contains("0 receivers forgotten after a day's silence, 10 gave way"), "\(summary)")
        // The pipeline forgot the labels that gave way, their counts summed.
        let counts = tracker.sourceCounts
        #expect(counts.count == RemoteReceivers.maximumReceivers + 1)
        #expect(counts.last?.label == FramePipeline.otherSources)
        #expect(counts.reduce(0) { $0 + $1.frames + $1.duplicates } == 3 * (RemoteReceivers.maximumReceivers + 10))
    }

    @Test func aStatusLineSaysItsCountCoversTheWholeNetwork() {
        let log = LogRecorder()
        let input = MQTTInput(
            configuration: MQTTConfiguration(
                broker: MQTTBroker(host: "127.0.0.1", port: 1, usesTLS: false), clientID: "test"),
            ownName: nil, logger: log.logger)
        let tracker = WiredTracker(receiver: nil)
        let start = ContinuousClock.now
        for index in 0..<30 {
            input.handle(
                MQTTReceivedMessage(
                    topic: "aviator/alpha/status",
                    payload: Array((index.isMultiple(of: 2) ? "online" : "offline").utf8),
                    retained: false), into: tracker, at: 1, instant: start)
        }
        input.handle(
            MQTTReceivedMessage(topic: "aviator/beta/status", payload: Array("offline".utf8), retained: false),
            into: tracker, at: 12, instant: start + .seconds(11))
        let line = log.lines.map(\.text).last { $0.hasPrefix("mqtt beta") }
        #expect(line == "mqtt beta is offline (21 status changes in the network since the last line)")
    }
}
