import FoundationEssentials
import ModeS
import Synchronization

/// The tracker shared between the receiving side (a demodulator thread, a network input, the
/// OpenSky poller) and the publishing side (the radar feed), behind a lock.
///
/// Receivers hand over frames with their time; publishers take snapshots. Both are short
/// critical sections, so a plain mutex beats hopping onto an actor for every frame.
///
/// Its clock is the wall clock, and nothing from outside moves it: a frame's time is taken
/// as given only when it is not in the future (a sender's timestamp, a replay running ahead
/// of real time or a skewed peer are cut back to now), so one bad frame can never age every
/// aircraft out of the map.
package final class LiveTracker: Sendable {
    /// Counters for the statistics line.
    package struct Counters: Sendable, Equatable {
        /// Frames accepted (CRC-checked or address-confirmed).
        package var frames = 0
        /// Frames whose parity was repaired.
        package var correctedFrames = 0
        /// External state updates (OpenSky).
        package var stateUpdates = 0
        /// Frames accepted, by downlink format (index 0 to 24; 24 stands for 24 and above, as
        /// `ModeSBits.downlinkFormat` reports them).
        package var framesByFormat = [Int](repeating: 0, count: 25)

        /// All zero.
        package init() {}
    }

    private struct State: Sendable {
        var tracker: Tracker
        var counters = Counters()
        var local = LocalStatistics()
        /// What each source feeds now, by slot, in the order the slots were first named.
        var sourceSlots: [(slot: String, name: String?)] = []
        /// Counters by source label, in the order the sources first delivered.
        var sources: [SourceCounts] = []
        /// Where each label's counters are in `sources`: a network brings thousands of
        /// labels, and every frame looks its own up.
        var sourceIndex: [String: Int] = [:]
        var duplicates = DuplicateFilter()
        /// Routes by callsign, from the route service.
        var routes: [String: FlightRoute] = [:]
        /// Where the receiver behind a source label is, for sources that are other
        /// receivers (nil inside: not known yet). Sources not listed are this receiver.
        var sourcePositions: [String: GeoPoint?] = [:]

        /// Counts `frame` from `source`, received at `received`, and says whether it is to be
        /// merged: false, counting it as that source's duplicate, when another source
        /// delivered the same frame just before (`DuplicateFilter`).
        mutating func admit(_ frame: Frame, from source: String, at received: Double) -> Bool {
            let index =
                sourceIndex[source]
                ?? {
                    sources.append(SourceCounts(label: source))
                    sourceIndex[source] = sources.count - 1
                    return sources.count - 1
                }()
            sources[index].lastFrame = received
            if !frame.isMultilaterated, duplicates.isDuplicate(frame.bits, from: source, at: received) {
                sources[index].duplicates += 1
                return false
            }
            sources[index].frames += 1
            return true
        }

        /// Merges `message`, decoded from `frame`, into the tracker and counts it; the
        /// update for listeners when `reporting` (see `Tracker.merge`). `receiver`: this
        /// receiver's position.
        mutating func merge(
            _ message: Message, frame: Frame, from source: String, at received: Double,
            receiver: GeoPoint?, reporting: Bool
        ) -> TrackUpdate? {
            // Another receiver's frames are positioned from where that receiver is.
            let heardAt: GeoPoint? = sourcePositions[source] ?? receiver
            let update = tracker.merge(
                message, at: received, multilaterated: frame.isMultilaterated,
                heardAt: heardAt, reporting: reporting)
            counters.frames += 1
            if frame.correctedBits > 0 { counters.correctedFrames += 1 }
            counters.framesByFormat[frame.downlinkFormat] += 1
            return update
        }
    }

    /// Everything counted so far, read at one moment: stats.json's figures.
    package struct Statistics: Sendable, Equatable {
        /// Frames and state updates.
        package var counters: Counters
        /// Tracks and positions.
        package var tracks: Tracker.Counts
        /// The local receiver's samples, frames, signal and noise (zero with no local receiver).
        package var local: LocalStatistics

        /// Statistics from their parts.
        package init(counters: Counters, tracks: Tracker.Counts, local: LocalStatistics) {
            self.counters = counters
            self.tracks = tracks
            self.local = local
        }
    }

    /// Called for every accepted frame, on the receiving thread, after the tracker merged it.
    /// Listeners must be quick: they run before the receiver takes its next frame.
    package typealias FrameListener = @Sendable (TrackUpdate) -> Void

    private let state: Mutex<State>
    private let listeners = Mutex<[FrameListener]>([])
    private let decoder = MessageDecoder()
    /// The receiver's position, if configured.
    package let receiver: GeoPoint?
    /// The tracker's clock: seconds since 1970.
    private let clock: @Sendable () -> Double

    /// The wall clock, in seconds since 1970.
    package static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// A tracker for a receiver at `receiver`, keeping time by `clock` (the wall clock; tests
    /// pass their own).
    package init(
        receiver: GeoPoint?, maxRangeKm: Double = 500,
        clock: @escaping @Sendable () -> Double = LiveTracker.wallClock
    ) {
        self.receiver = receiver
        self.clock = clock
        state = Mutex(State(tracker: Tracker(receiver: receiver, maxRangeKm: maxRangeKm)))
    }

    /// The label of frames handed over without one: a single local receiver.
    package static let localSource = "local"

    /// Decodes `frame` from the source labelled `source` and merges it, received at `time`
    /// (seconds since 1970; a time in the future counts as now). Returns false, counting it
    /// as that source's duplicate, when another source delivered the same frame just before
    /// (`DuplicateFilter`).
    @discardableResult
    package func accept(_ frame: Frame, at time: Double, from source: String = LiveTracker.localSource) -> Bool {
        let message = decoder.decode(frame)
        let now = clock()
        let received = time.isFinite ? min(time, now) : now
        // The update for listeners is only made when one listens (see `Tracker.merge`).
        let listening = !listeners.withLock { $0.isEmpty }
        let outcome: (tracked: Bool, update: TrackUpdate?) = state.withLock { state in
            guard state.admit(frame, from: source, at: received) else { return (false, nil) }
            return (
                true,
                state.merge(
                    message, frame: frame, from: source, at: received, receiver: receiver,
                    reporting: listening)
            )
        }
        guard var update = outcome.update else { return outcome.tracked }
        update.frame = frame
        update.source = source
        for listener in listeners.withLock({ $0 }) { listener(update) }
        return true
    }

    /// Says that the frames labelled `source` come from another receiver at `position` (nil:
    /// a receiver whose position is not known yet): their CPR frames are then decoded
    /// against that receiver's position instead of this one's, and range-checked from there
    /// (with no position, only global decoding, without a range check).
    package func setPosition(_ position: GeoPoint?, ofSource source: String) {
        state.withLock { $0.sourcePositions[source] = .some(position) }
    }

    /// Forgets what `setPosition(_:ofSource:)` said about `source`.
    package func forgetPosition(ofSource source: String) {
        state.withLock { _ = $0.sourcePositions.removeValue(forKey: source) }
    }

    /// What each source delivered so far, in the order they first delivered.
    package var sourceCounts: [SourceCounts] { state.withLock { $0.sources } }

    /// Adds a listener for accepted frames (outputs such as Beast, AVR and SBS use this).
    package func addFrameListener(_ listener: @escaping FrameListener) {
        listeners.withLock { $0.append(listener) }
    }

    /// Merges a complete state from another source (OpenSky); its times are cut back to now
    /// when they lie in the future.
    package func accept(_ update: AircraftState) {
        let now = clock()
        var update = update
        update.lastSeen = update.lastSeen.isFinite ? min(update.lastSeen, now) : now
        update.positionTime = update.positionTime.map { $0.isFinite ? min($0, update.lastSeen) : update.lastSeen }
        update.sourceTime = update.lastSeen
        state.withLock { state in
            state.tracker.merge(update)
            state.counters.stateUpdates += 1
        }
    }

    /// The names of the sources feeding the tracker now, joined by "+" ("rtl-sdr",
    /// "replay+beast", "opensky"), or "none": reported in every radar frame.
    package var source: String {
        state.withLock { state in
            var names: [String] = []
            for case let name? in state.sourceSlots.map(\.name) where !names.contains(name) { names.append(name) }
            return names.isEmpty ? "none" : names.joined(separator: "+")
        }
    }

    /// Names what feeds `slot` now (nil: nothing). Each configured source has a slot (its
    /// label); the dongle's slot switches between "rtl-sdr" and its fallback.
    package func setSource(_ name: String?, slot: String) {
        state.withLock { state in
            if let index = state.sourceSlots.firstIndex(where: { $0.slot == slot }) {
                state.sourceSlots[index].name = name
            } else {
                state.sourceSlots.append((slot, name))
            }
        }
    }

    /// The tracker's notion of now: its clock.
    package var now: Double { clock() }

    /// Every aircraft heard recently, with the time the snapshot was taken. A read only:
    /// aircraft are forgotten by `expire`, on a timer.
    package func snapshot() -> (time: Double, aircraft: [AircraftState]) {
        let now = clock()
        return state.withLock { state in
            var aircraft = state.tracker.snapshot(at: now)
            if !state.routes.isEmpty {
                for index in aircraft.indices {
                    if let callsign = aircraft[index].callsign { aircraft[index].route = state.routes[callsign] }
                }
            }
            return (now, aircraft)
        }
    }

    /// How many aircraft are tracked now, and how many of them have a position that is not
    /// stale (the ones aircraft.json gives a position).
    package func aircraftCounts() -> (all: Int, withPosition: Int) {
        let snapshot = snapshot()
        let withPosition = snapshot.aircraft.filter { $0.position != nil && !$0.positionIsStale(at: snapshot.time) }
            .count
        return (snapshot.aircraft.count, withPosition)
    }

    /// Replaces the known routes (by callsign, as the aircraft report it); the next
    /// snapshots carry them.
    package func setRoutes(_ routes: [String: FlightRoute]) {
        state.withLock { $0.routes = routes }
    }

    /// The callsigns of the aircraft tracked now, each once.
    package func callsigns() -> [String] {
        let now = clock()
        return state.withLock { state in Array(Set(state.tracker.snapshot(at: now).compactMap(\.callsign))) }
    }

    /// Forgets aircraft not heard for `Tracker.expireAfter` seconds; returns how many.
    @discardableResult
    package func expire() -> Int {
        let now = clock()
        return state.withLock { state in
            let before = state.tracker.count
            state.tracker.expire(at: now)
            return before - state.tracker.count
        }
    }

    /// Calls `expire` every `interval` until the task is cancelled.
    package func expireRegularly(every interval: Duration = .seconds(5)) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            expire()
        }
    }

    /// The counters so far.
    package var counters: Counters { state.withLock { $0.counters } }

    /// Adds what a local receiver counted in one block of samples.
    package func addLocal(_ block: LocalStatistics) {
        state.withLock { $0.local.add(block) }
    }

    /// Everything counted so far.
    package var statistics: Statistics {
        state.withLock { Statistics(counters: $0.counters, tracks: $0.tracker.counts, local: $0.local) }
    }
}
