import ModeS
import ReceiverNetwork
import Receivers

/// The input is one message from the broker as an MQTT input receives it: byte 0 picks the
/// topic (a receiver's frame batch, its announcement, its status, or a topic read from the
/// input up to its first zero byte), the rest is the payload. It goes through the payload
/// parsers on their own and through `RemoteReceivers`, twice (the second time as the next
/// message of the same receiver).
///
/// Checks: a batch that reads back is written again by `BeastEncoder` into a payload that
/// reads back to the same numbers, bits and timestamps; every frame the input keeps passed
/// the validator with its bits unchanged; an announcement that reads back has a position on
/// the globe and reads back the same from its own JSON; every message of a receiver is
/// counted exactly once (a batch, a malformed or an oversized payload) or concerns no
/// receiver.
enum MQTTTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let selector = input.first else { return }
        var rest = Array(input.dropFirst())
        let topic: String
        switch selector % 4 {
        case 0: topic = "aviator/fuzz/beast"
        case 1: topic = "aviator/fuzz/receiver"
        case 2: topic = "aviator/fuzz/status"
        default:
            let cut = rest.firstIndex(of: 0) ?? rest.count
            topic = String(decoding: rest[..<cut], as: UTF8.self)
            rest = Array(rest[min(cut + 1, rest.count)...])
        }
        if let batch = try? BeastBatch.decode(rest) { try checkRoundTrip(batch) }
        if let announcement = try? ReceiverAnnouncement.decode(rest) { try checkRoundTrip(announcement) }

        var receivers = RemoteReceivers(ownName: "self")
        var messages = 0
        for time in [1_700_000_000.0, 1_700_000_000.25] {
            guard let delivery = receivers.receive(topic: topic, payload: rest, at: time) else { continue }
            messages += 1
            try FuzzTargets.check(
                delivery.label == ReceiverName.sourceLabel(ReceiverTopics.parse(topic)?.name ?? ""),
                "label \(delivery.label) for topic \(topic)")
            for frame in delivery.frames {
                try FuzzTargets.check(frame.parityVerified, "a frame accepted on trust")
                try FrameCheck.validated(frame, "frame from \(topic)")
            }
        }
        if ReceiverTopics.parse(topic)?.kind == ReceiverTopics.beastLevel,
            let counted = receivers.counters.first?.counters
        {
            try FuzzTargets.check(
                counted.batches + counted.malformed + counted.oversized == messages,
                "\(messages) batch messages counted as \(counted)")
        }
    }

    private static func checkRoundTrip(_ batch: BeastBatch) throws(FuzzFailure) {
        var payload = BeastBatch.header(sequence: batch.sequence, framesBefore: batch.framesBefore)
        for received in batch.frames {
            let frame = Frame(
                bits: received.bits, address: 0, timestamp: received.timestamp, signalLevel: received.signalLevel)
            BeastEncoder.append(frame, to: &payload)
        }
        guard let again = try? BeastBatch.decode(payload) else {
            throw FuzzFailure("a batch of \(batch.frames.count) frames written again does not read back")
        }
        try FuzzTargets.check(
            again.sequence == batch.sequence && again.framesBefore == batch.framesBefore,
            "numbers \(batch.sequence)/\(batch.framesBefore) read back as \(again.sequence)/\(again.framesBefore)")
        try FuzzTargets.check(again.frames.map(\.bits) == batch.frames.map(\.bits), "bits changed on the way round")
        try FuzzTargets.check(
            again.frames.map(\.timestamp) == batch.frames.map(\.timestamp), "timestamps changed on the way round")
    }

    private static func checkRoundTrip(_ announcement: ReceiverAnnouncement) throws(FuzzFailure) {
        if let position = announcement.position {
            try FuzzTargets.check(
                abs(position.latitude) <= 90.05 && abs(position.longitude) <= 180.05,
                "position \(position) off the globe")
        }
        guard let again = try? ReceiverAnnouncement.decode(Array(announcement.json.utf8)) else {
            throw FuzzFailure("an announcement written again does not read back: \(announcement.json)")
        }
        try FuzzTargets.check(
            again.version == announcement.version && again.sources == announcement.sources,
            "the texts changed on the way round: \(announcement.json)")
        try FuzzTargets.check((again.position == nil) == (announcement.position == nil), "the position came and went")
    }
}
