import Foundation
import ModeS
import Synchronization

/// The tracker shared between the receiving side (a demodulator thread, a network input, the
/// OpenSky poller) and the publishing side (the radar feed), behind a lock.
///
/// Receivers hand over frames with their time; publishers take snapshots. Both are short
/// critical sections, so a plain mutex beats hopping onto an actor for every frame.
public final class LiveTracker: Sendable {
    /// Counters for the statistics line.
    public struct Counters: Sendable, Equatable {
        /// Frames accepted (CRC-checked or address-confirmed).
        public var frames = 0
        /// Frames whose parity was repaired.
        public var correctedFrames = 0
        /// External state updates (OpenSky).
        public var stateUpdates = 0

        /// All zero.
        public init() {}
    }

    private struct State: Sendable {
        var tracker: Tracker
        var counters = Counters()
        var source = "none"
        var latestTime = 0.0
    }

    /// Called for every accepted frame, on the receiving thread, after the tracker merged it.
    /// Listeners must be quick: they run before the receiver takes its next frame.
    public typealias FrameListener = @Sendable (TrackUpdate) -> Void

    private let state: Mutex<State>
    private let listeners = Mutex<[FrameListener]>([])
    private let decoder = MessageDecoder()
    /// The receiver's position, if configured.
    public let receiver: GeoPoint?

    /// A tracker for a receiver at `receiver`.
    public init(receiver: GeoPoint?, maxRangeKm: Double = 500) {
        self.receiver = receiver
        state = Mutex(State(tracker: Tracker(receiver: receiver, maxRangeKm: maxRangeKm)))
    }

    /// Decodes `frame` and merges it, received at `time` (seconds since 1970).
    public func accept(_ frame: Frame, at time: Double) {
        let message = decoder.decode(frame)
        let merged = state.withLock { state in
            let update = state.tracker.merge(message, at: time)
            state.counters.frames += 1
            if frame.correctedBits > 0 { state.counters.correctedFrames += 1 }
            state.latestTime = max(state.latestTime, time)
            return update
        }
        guard var update = merged else { return }
        update.frame = frame
        for listener in listeners.withLock({ $0 }) { listener(update) }
    }

    /// Adds a listener for accepted frames (outputs such as Beast, AVR and SBS use this).
    public func addFrameListener(_ listener: @escaping FrameListener) {
        listeners.withLock { $0.append(listener) }
    }

    /// Merges a complete state from another source (OpenSky).
    public func accept(_ update: AircraftState) {
        state.withLock { state in
            state.tracker.merge(update)
            state.counters.stateUpdates += 1
            state.latestTime = max(state.latestTime, update.lastSeen)
        }
    }

    /// The name of the source feeding the tracker now ("rtl-sdr", "replay", "beast",
    /// "opensky" or "none"): reported in every radar frame.
    public var source: String {
        get { state.withLock { $0.source } }
        set { state.withLock { $0.source = newValue } }
    }

    /// The tracker's notion of now: the wall clock, or the time of the latest message when a
    /// fast replay runs ahead of it.
    public var now: Double {
        let wall = Date().timeIntervalSince1970
        return state.withLock { max(wall, $0.latestTime) }
    }

    /// Every aircraft heard recently, with the time the snapshot was taken. A read only:
    /// aircraft are forgotten by `expire`, on a timer.
    public func snapshot() -> (time: Double, aircraft: [AircraftState]) {
        let wall = Date().timeIntervalSince1970
        return state.withLock { state in
            let now = max(wall, state.latestTime)
            return (now, state.tracker.snapshot(at: now))
        }
    }

    /// Forgets aircraft not heard for `Tracker.expireAfter` seconds; returns how many.
    @discardableResult
    public func expire() -> Int {
        let wall = Date().timeIntervalSince1970
        return state.withLock { state in
            let before = state.tracker.count
            state.tracker.expire(at: max(wall, state.latestTime))
            return before - state.tracker.count
        }
    }

    /// Calls `expire` every `interval` until the task is cancelled.
    public func expireRegularly(every interval: Duration = .seconds(5)) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            expire()
        }
    }

    /// The counters so far.
    public var counters: Counters { state.withLock { $0.counters } }
}
