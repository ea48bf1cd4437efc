import FoundationEssentials
import ModeS
import Pipeline
import Synchronization
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hands every frame to the outputs: Beast and AVR bytes from the pipeline's frames (a tap,
/// which never waits for the tracker's lock), SBS lines from the tracker's updates (they need
/// the aircraft's state after the merge).
///
/// The receiving thread (a demodulator, a network input) only queues; `run` encodes the queue
/// on its own task a few milliseconds later, so a slow output or a busy machine never holds
/// up demodulation. The queue is bounded: when the encoder falls behind by `capacity` items,
/// newer ones are dropped and counted (`droppedUpdates`, in the statistics line and /metrics).
package final class FrameFanout: Sendable {
    /// Items that may wait to be encoded: a few seconds of the busiest sky.
    package static let capacity = 16_384

    /// One thing to encode: a received frame (Beast, AVR) or a tracker update (SBS).
    enum Item: Sendable {
        case frame(Frame)
        case update(TrackUpdate)
    }

    private let beast: TCPBroadcastServer?
    private let sbs: TCPBroadcastServer?
    private let avr: TCPBroadcastServer?
    /// The SBS encoder with the local time offset, and when that offset must be looked up
    /// again (daylight saving time changes it while the daemon runs).
    private let sbsClock = Mutex<(encoder: SBSEncoder, validUntil: Double)>((SBSEncoder(), 0))
    /// Items queued by the receiving thread, and how many found the queue full.
    private let queue = Mutex<(items: [Item], dropped: Int)>(([], 0))

    /// A fanout to whichever outputs are given.
    package init(beast: TCPBroadcastServer?, sbs: TCPBroadcastServer?, avr: TCPBroadcastServer?) {
        self.beast = beast
        self.sbs = sbs
        self.avr = avr
        queue.withLock { $0.items.reserveCapacity(1024) }
    }

    /// Taps `pipeline` for the frames of the Beast and AVR outputs and listens to `tracker`
    /// for the updates of the SBS output; they wait for `run` (or `drain`). A multilateration
    /// result was computed, not received: it goes into the tracker but is never sent on as
    /// if we had heard it.
    package func attach(to pipeline: FramePipeline, tracker: LiveTracker) {
        pipeline.addTap { [self] decoded in
            guard !decoded.frame.isMultilaterated else { return }
            enqueue(.frame(decoded.frame))
        }
        if sbs != nil {
            tracker.addFrameListener { [self] update in
                guard let frame = update.frame, !frame.isMultilaterated else { return }
                enqueue(.update(update))
            }
        }
    }

    /// Queues one item, or counts it when the queue is full.
    func enqueue(_ item: Item) {
        queue.withLock { queue in
            if queue.items.count < Self.capacity {
                queue.items.append(item)
            } else {
                queue.dropped += 1
            }
        }
    }

    /// Items dropped so far because the encoder fell behind.
    package var droppedUpdates: Int { queue.withLock { $0.dropped } }

    /// Encodes every queued item into the outputs; returns how many there were.
    @discardableResult
    package func drain() -> Int {
        let batch = queue.withLock { queue -> [Item] in
            var taken: [Item] = []
            taken.reserveCapacity(queue.items.capacity)
            swap(&taken, &queue.items)
            return taken
        }
        for item in batch {
            switch item {
            case .frame(let frame): encode(frame)
            case .update(let update): encode(update.message, update.aircraft)
            }
        }
        return batch.count
    }

    /// Encodes the queue every `interval` until the task is cancelled, then once more. The
    /// interval adds at most that much latency; the TCP servers batch for 25 ms anyway.
    package func run(every interval: Duration = .milliseconds(10)) async {
        while !Task.isCancelled {
            drain()
            do { try await Task.sleep(for: interval) } catch { break }
        }
        drain()
    }

    /// Encodes one received frame into the Beast and AVR outputs.
    func encode(_ frame: Frame) {
        if let beast, beast.hasClients {
            beast.append { BeastEncoder.append(frame, to: &$0) }
        }
        if let avr, avr.hasClients {
            avr.append { AVREncoder.append(frame.bits, to: &$0) }
        }
    }

    /// Encodes one merged message into the SBS output.
    func encode(_ message: Message, _ aircraft: AircraftState) {
        if let sbs, sbs.hasClients {
            let now = Date().timeIntervalSince1970
            let encoder = sbsEncoder(at: now)
            if let line = encoder.line(for: message, aircraft: aircraft, receivedAt: now) {
                sbs.append { $0.append(contentsOf: line.utf8) }
            }
        }
    }

    /// The SBS encoder for local time at `now`, refreshed once a minute.
    private func sbsEncoder(at now: Double) -> SBSEncoder {
        sbsClock.withLock { clock in
            if now >= clock.validUntil {
                clock.encoder.utcOffsetSeconds = Self.localUTCOffset(at: now)
                clock.validUntil = now + 60
            }
            return clock.encoder
        }
    }

    /// Seconds the local time zone (`TZ`, else /etc/localtime) is ahead of UTC at `time`
    /// (seconds since 1970), summer time included; 0 when the C library cannot tell.
    static func localUTCOffset(at time: Double) -> Int {
        var seconds = time_t(time.rounded(.down))
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return 0 }
        return fields.tm_gmtoff
    }
}
