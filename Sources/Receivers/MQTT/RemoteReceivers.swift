import ModeS
import ReceiverNetwork

/// The receivers an MQTT input hears, by name: each one's counters, position and batch
/// sequence, and what one message from the network means for the pipeline.
///
/// Every payload is read whole before anything of it is used (`BeastBatch`,
/// `ReceiverAnnouncement`): one out of place drops it, counted against the receiver whose
/// topic it came on. Frames are checked again by one `FrameValidator` shared by all the
/// receivers (an address one of them heard confirms that aircraft for the others). The
/// daemon's own frames, which come back from the broker when it also publishes, are ignored.
///
/// A plain value with the time passed in; the input keeps one under its lock.
package struct RemoteReceivers: Sendable {
    /// What one message asks of the pipeline.
    package struct Delivery: Sendable {
        /// The receiver's source label ("mqtt NAME").
        package var label: String
        /// Frames to track, checked.
        package var frames: [Frame] = []
        /// The receiver's position, when this message set it (the inner nil: not known).
        package var position: GeoPoint??
        /// Why the payload was dropped, when it was.
        package var problem: NetworkPayloadError?
        /// A change of the receiver's status, when this message brought one.
        package var online: Bool?
        /// A break in the receiver's batch numbers, when this batch showed one: "batch 21
        /// after 19".
        package var gap: String?
        /// The announced position changed (to another place, or to none; not the first
        /// announcement, nor the same one again): worth a line, since a wrong announcement
        /// silently cuts the positions decoded for that receiver.
        package var moved = false
        /// Labels of receivers forgotten with this message (silent for `forgetAfter`, or the
        /// longest silent giving way to a new one): the pipeline forgets their counts too.
        package var forgotten: [String] = []
        /// The receiver that gave way to this one because the table was full, and how long
        /// it had been silent (seconds).
        package var displaced: (label: String, silent: Double)?
        /// How far (km) from the announced position an aircraft this batch placed was, when
        /// farther than any receiver hears (`AnnouncementCheck`): the announcement is wrong.
        package var contradiction: Double?
    }

    private struct Remote: Sendable {
        var counters = RemoteReceiverCounters()
        var position: GeoPoint?
        var lastSequence: UInt32?
        var framesAfterLast: UInt32 = 0
        /// When its sequence last went back.
        var lastRestart: Double?
        /// Its announcement checked against its frames.
        var check = AnnouncementCheck()
    }

    /// Two restarts closer than this suggest two publishers sharing one name (each batch
    /// of one goes back from the other's numbers) rather than a receiver started again.
    static let restartsTooClose = 60.0

    /// The most receivers remembered: enough for a large network; beyond it, a new name
    /// takes the place of the longest-silent one (`displacedReceivers`), so made-up names
    /// can neither exhaust memory nor shut out a real receiver for good.
    package static let maximumReceivers = 20_000

    /// Seconds of silence after which a receiver is forgotten: a day, long past the
    /// broker's last will and any restart, and longer than a quiet night (a receiver
    /// publishes only while it hears frames). One forgotten and heard again is a new
    /// receiver: decoded without a reference until it announces its position again (on its
    /// next connection, or this input's).
    package static let forgetAfter = 86_400.0

    /// This daemon's own name, whose messages are ignored.
    package let ownName: String?
    private var remotes = RecencyTable<Remote>()
    private var validator = FrameValidator()
    /// Messages on topics that name no valid receiver.
    package private(set) var badTopics = 0
    /// Receivers forgotten after `forgetAfter` seconds of silence.
    package private(set) var forgottenReceivers = 0
    /// Receivers that gave way to a new one because `maximumReceivers` were known.
    package private(set) var displacedReceivers = 0
    /// What the forgotten and displaced receivers had counted, summed.
    package private(set) var forgottenCounters = RemoteReceiverCounters()
    /// Messages of this daemon's own, ignored.
    package private(set) var ownMessages = 0

    /// Receivers for an input whose own name (ignored) is `ownName`.
    package init(ownName: String?) {
        self.ownName = ownName
    }

    /// How many receivers were heard.
    package var count: Int { remotes.count }

    /// Each receiver's label and counters, the longest silent first.
    package var counters: [(label: String, counters: RemoteReceiverCounters)] {
        remotes.all.map { (ReceiverName.sourceLabel($0.name), $0.value.counters) }
    }

    /// Reads one message received at `time` (seconds since 1970); nil when it concerns no
    /// receiver (a bad topic, the daemon's own, one receiver too many). `size` is the
    /// payload's as published, when the client did not keep one that large.
    package mutating func receive(topic: String, payload: [UInt8], size: Int? = nil, at time: Double) -> Delivery? {
        guard let (name, kind) = ReceiverTopics.parse(topic) else {
            badTopics += 1
            return nil
        }
        if name == ownName {
            ownMessages += 1
            return nil
        }
        var delivery = Delivery(label: ReceiverName.sourceLabel(name))
        forgetSilent(at: time, into: &delivery)
        var remote = remotes[name] ?? newRemote(at: time, into: &delivery)
        defer { remotes.set(remote, for: name, heardAt: time) }
        if let size, size > payload.count, kind != "status" {
            let limit =
                kind == ReceiverTopics.beastLevel ? BeastBatch.maximumPayload : ReceiverAnnouncement.maximumPayload
            let error = NetworkPayloadError.oversized(size, limit: limit)
            count(error, in: &remote.counters)
            delivery.problem = error
            return delivery
        }
        switch kind {
        case ReceiverTopics.beastLevel:
            receiveBatch(payload, at: time, remote: &remote, into: &delivery)
        case ReceiverTopics.receiverLevel:
            do throws(NetworkPayloadError) {
                let position = payload.isEmpty ? nil : try ReceiverAnnouncement.decode(payload).position
                if let before = remote.position, before != position { delivery.moved = true }
                if position != remote.position { remote.check.restart() }
                remote.position = position
                delivery.position = .some(position)
            } catch {
                count(error, in: &remote.counters)
                delivery.problem = error
            }
        case "status":
            let text = String(decoding: payload.prefix(16), as: UTF8.self)
            if text == "online" || text == "offline" {
                let online = text == "online"
                if remote.counters.online != online { delivery.online = online }
                remote.counters.online = online
            }
        default:
            break
        }
        return delivery
    }

    /// A receiver heard for the first time at `time`, taking the place of the longest-silent
    /// one when `maximumReceivers` are known.
    private mutating func newRemote(at time: Double, into delivery: inout Delivery) -> Remote {
        if remotes.count >= Self.maximumReceivers, let oldest = remotes.oldest {
            displacedReceivers += 1
            delivery.displaced = (ReceiverName.sourceLabel(oldest.name), max(0, time - oldest.heard))
            forgetOldest(into: &delivery)
        }
        // Until it says where it is, its frames are decoded without a reference.
        delivery.position = .some(nil)
        return Remote()
    }

    /// Forgets the receivers silent for longer than `forgetAfter` at `time`.
    private mutating func forgetSilent(at time: Double, into delivery: inout Delivery) {
        while let oldest = remotes.oldest, time - oldest.heard > Self.forgetAfter {
            forgottenReceivers += 1
            forgetOldest(into: &delivery)
        }
    }

    /// Forgets the longest-silent receiver, keeping its counts in `forgottenCounters`.
    private mutating func forgetOldest(into delivery: inout Delivery) {
        guard let (name, remote) = remotes.removeOldest() else { return }
        forgottenCounters.add(remote.counters)
        delivery.forgotten.append(ReceiverName.sourceLabel(name))
    }

    /// Adds `value` to `counter`, stopping at the largest count rather than trapping.
    private static func add(_ value: Int, to counter: inout Int) {
        let (sum, overflow) = counter.addingReportingOverflow(value)
        counter = overflow ? .max : sum
    }

    private mutating func receiveBatch(
        _ payload: [UInt8], at time: Double, remote: inout Remote,
        into delivery: inout Delivery
    ) {
        let batch: BeastBatch
        do throws(NetworkPayloadError) {
            batch = try BeastBatch.decode(payload)
        } catch {
            count(error, in: &remote.counters)
            delivery.problem = error
            return
        }
        noteSequence(of: batch, at: time, remote: &remote, into: &delivery)
        remote.counters.batches += 1
        delivery.frames.reserveCapacity(batch.frames.count)
        for received in batch.frames {
            guard var frame = validator.validate(received.bits, time: time) else {
                remote.counters.rejected += 1
                continue
            }
            // The sender's 12 MHz clock and level travel on; the pipeline's time is ours.
            frame.timestamp = received.timestamp
            frame.signalLevel = received.signalLevel
            frame.isMultilaterated = received.isMultilaterated
            delivery.frames.append(frame)
            if let announced = remote.position, !frame.isMultilaterated,
                let distance = remote.check.check(frame, at: time, announced: announced),
                distance > AnnouncementCheck.contradictionKm
            {
                remote.counters.contradictions += 1
                delivery.contradiction = distance
            }
        }
        remote.counters.frames += delivery.frames.count
    }

    /// Counts the batches (and frames) missed before `batch`, or the receiver's restart.
    private func noteSequence(
        of batch: BeastBatch, at time: Double, remote: inout Remote, into delivery: inout Delivery
    ) {
        if let last = remote.lastSequence {
            let gap = batch.sequence &- last &- 1
            if gap == 0 {
            } else if gap < 1 << 31 {
                Self.add(Int(gap), to: &remote.counters.missedBatches)
                // Frames the missing batches held, unless the sender's count says more than
                // they could hold (a sender that counts wrongly, or a hostile one).
                let missed = Int(batch.framesBefore &- remote.framesAfterLast)
                if missed <= Int(gap) * BeastBatch.maximumFrames {
                    Self.add(missed, to: &remote.counters.missedFrames)
                    delivery.gap = "batch \(batch.sequence) after \(last): \(gap) missed"
                } else {
                    delivery.gap =
                        "batch \(batch.sequence) after \(last): \(gap) missed, with a frame count they could not hold"
                }
            } else {
                // Sequence numbers went back: the receiver started again from zero.
                remote.counters.restarts += 1
                if let previous = remote.lastRestart, time - previous < Self.restartsTooClose {
                    delivery.gap =
                        "batch \(batch.sequence) after \(last): started again within a minute of the last "
                        + "restart; two receivers may be publishing under the same name"
                } else {
                    delivery.gap = "batch \(batch.sequence) after \(last): started again"
                }
                remote.lastRestart = time
            }
        }
        remote.lastSequence = batch.sequence
        remote.framesAfterLast = batch.framesBefore &+ UInt32(truncatingIfNeeded: batch.frames.count)
    }

    private func count(_ error: NetworkPayloadError, in counters: inout RemoteReceiverCounters) {
        switch error {
        case .oversized: counters.oversized += 1
        case .malformed: counters.malformed += 1
        }
    }
}
