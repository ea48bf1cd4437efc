import ModeS
import ReceiverNetwork

/// Collects the frames to publish and cuts them into `BeastBatch` payloads a few times a
/// second: a quarter second of frames in one message costs the broker a few messages a
/// second instead of a thousand, and adds at most that much delay.
///
/// Adding a frame only appends it (the receiving thread calls `add`); `take` encodes. What
/// waits is bounded: beyond `capacity` frames (the publishing task has stalled for seconds),
/// newer frames are dropped and counted. Payloads stay under `maximumPayload`, so a burst is
/// split into several batches rather than one a subscriber would refuse.
///
/// A plain value with the time passed in; the publisher keeps one under its lock.
package struct BeastBatcher: Sendable {
    /// The largest payload written (well under `BeastBatch.maximumPayload`).
    package static let maximumPayload = 64 << 10
    /// Frames that may wait: tens of seconds of a busy receiver.
    package static let capacity = 65_536

    /// Seconds between batches.
    package let interval: Double
    private var pending: [Frame] = []
    private var lastBatch: Double?
    private var sequence: UInt32 = 0
    private var framesBefore: UInt32 = 0
    /// Frames dropped because `capacity` were waiting.
    package private(set) var dropped = 0
    /// Batches made so far.
    package private(set) var batches = 0
    /// Frames put into batches so far.
    package private(set) var frames = 0

    /// A batcher making a batch every `interval` seconds.
    package init(interval: Double = 0.25) {
        self.interval = interval
    }

    /// Frames waiting for the next batch.
    package var waiting: Int { pending.count }

    /// Adds one frame to the next batch, or counts it as dropped when `capacity` wait.
    package mutating func add(_ frame: Frame) {
        guard pending.count < Self.capacity else {
            dropped += 1
            return
        }
        pending.append(frame)
    }

    /// The payloads due at `now` (seconds): none until `interval` has passed since the last
    /// batch, and none when no frame waits; else every waiting frame, in as many payloads as
    /// `maximumPayload` needs, numbered on from the previous ones. A time before the last
    /// batch (the wall clock stepped back) makes a batch due at once.
    package mutating func take(at now: Double) -> [[UInt8]] {
        guard !pending.isEmpty else { return [] }
        if let lastBatch, (0..<interval).contains(now - lastBatch) { return [] }
        lastBatch = now
        var payloads: [[UInt8]] = []
        var payload: [UInt8] = []
        var count: UInt32 = 0
        func finish() {
            payloads.append(payload)
            sequence &+= 1
            framesBefore &+= count
            batches += 1
        }
        for frame in pending {
            if payload.isEmpty {
                payload = BeastBatch.header(sequence: sequence, framesBefore: framesBefore)
                payload.reserveCapacity(min(Self.maximumPayload, BeastBatch.headerSize + pending.count * 24))
                count = 0
            }
            BeastEncoder.append(frame, to: &payload)
            count += 1
            if payload.count > Self.maximumPayload - BeastEncoder.maximumFrameBytes {
                finish()
                payload = []
            }
        }
        if !payload.isEmpty { finish() }
        frames += pending.count
        pending.removeAll(keepingCapacity: true)
        return payloads
    }
}
