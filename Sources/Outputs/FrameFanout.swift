import FoundationEssentials
import ModeS
import Synchronization
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hands every frame the tracker accepts to the outputs: Beast and AVR bytes and SBS lines
/// into their servers' batches, the signal level into the record behind aircraft.json.
///
/// The receiving thread (a demodulator, a network input) only queues the tracker's update;
/// `run` encodes the queue on its own task a few milliseconds later, so a slow output or a
/// busy machine never holds up demodulation. The queue is bounded: when the encoder falls
/// behind by `capacity` updates, newer ones are dropped and counted (`droppedUpdates`).
package final class FrameFanout: Sendable {
    /// Updates that may wait to be encoded: a few seconds of the busiest sky.
    package static let capacity = 16_384

    private let beast: TCPBroadcastServer?
    private let sbs: TCPBroadcastServer?
    private let avr: TCPBroadcastServer?
    private let signals: SignalLevels?
    /// The SBS encoder with the local time offset, and when that offset must be looked up
    /// again (daylight saving time changes it while the daemon runs).
    private let sbsClock = Mutex<(encoder: SBSEncoder, validUntil: Double)>((SBSEncoder(), 0))
    /// Updates queued by the receiving thread, and how many found the queue full.
    private let queue = Mutex<(updates: [TrackUpdate], dropped: Int)>(([], 0))

    /// A fanout to whichever outputs are given.
    package init(beast: TCPBroadcastServer?, sbs: TCPBroadcastServer?, avr: TCPBroadcastServer?, signals: SignalLevels?)
    {
        self.beast = beast
        self.sbs = sbs
        self.avr = avr
        self.signals = signals
        queue.withLock { $0.updates.reserveCapacity(1024) }
    }

    /// Registers with `tracker` for its accepted frames; they wait for `run` (or `drain`).
    package func attach(to tracker: LiveTracker) {
        tracker.addFrameListener { [self] update in enqueue(update) }
    }

    /// Queues one update, or counts it when the queue is full.
    func enqueue(_ update: TrackUpdate) {
        guard update.frame != nil else { return }
        queue.withLock { queue in
            if queue.updates.count < Self.capacity {
                queue.updates.append(update)
            } else {
                queue.dropped += 1
            }
        }
    }

    /// Updates dropped so far because the encoder fell behind.
    package var droppedUpdates: Int { queue.withLock { $0.dropped } }

    /// Encodes every queued update into the outputs; returns how many there were.
    @discardableResult
    package func drain() -> Int {
        let batch = queue.withLock { queue -> [TrackUpdate] in
            var taken: [TrackUpdate] = []
            taken.reserveCapacity(queue.updates.capacity)
            swap(&taken, &queue.updates)
            return taken
        }
        for update in batch {
            if let frame = update.frame { handle(frame, update.message, update.aircraft) }
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

    /// Encodes one accepted frame into the outputs. A multilateration result was computed,
    /// not received: it goes into the tracker but is never sent on as if we had heard it.
    func handle(_ frame: Frame, _ message: Message, _ aircraft: AircraftState) {
        guard !frame.isMultilaterated else { return }
        signals?.record(key: aircraft.key, dBFS: frame.signalLevel)
        if let beast, beast.hasClients {
            beast.append { BeastEncoder.append(frame, to: &$0) }
        }
        if let avr, avr.hasClients {
            avr.append { AVREncoder.append(frame.bits, to: &$0) }
        }
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
