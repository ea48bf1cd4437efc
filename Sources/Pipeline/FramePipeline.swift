import FoundationEssentials
import ModeS
import Synchronization

/// The one stage between the sources and the tracker. Every frame from every source passes
/// through it once: it drops a frame another source delivered just before
/// (`DuplicateFilter`), decodes the rest once, counts them per source and per format, hands
/// each to the frame taps (the Beast, AVR and MQTT outputs, which need frames, not aircraft)
/// and then to the tracker.
///
/// Its clock is the wall clock, and nothing from outside moves it: a frame's time is taken as
/// given only when it is not in the future (a sender's timestamp, a replay running ahead of
/// real time or a skewed peer are cut back to now), so one bad frame can never age every
/// aircraft out of the map.
///
/// Its lock covers only the counting and the duplicate check; the taps and the tracker run
/// after it, each behind its own.
package final class FramePipeline: FrameSink {
    /// The label of frames handed over without one: a single local receiver.
    package static let localSource = "local"

    /// The most source labels counted one by one; frames of further labels are counted
    /// together as `otherSources`. A network's receivers are forgotten before this (the MQTT
    /// input keeps at most 20,000), so only a flood of labels reaches it.
    package static let maximumSources = 20_000

    /// The label under which forgotten sources and those beyond `maximumSources` are counted.
    package static let otherSources = "other sources"

    /// The wall clock, in seconds since 1970.
    package static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// Called for every admitted frame, on the receiving thread, before the tracker merges it.
    /// Taps must be quick: they run before the receiver takes its next frame.
    package typealias Tap = @Sendable (DecodedFrame) -> Void

    private struct State: Sendable {
        var counters = FrameCounters()
        var local = LocalStatistics()
        /// What each source feeds now, by slot, in the order the slots were first named.
        var sourceSlots: [(slot: String, name: String?)] = []
        /// Counters by source label, at most `maximumSources` of them.
        var sources: [SourceCounts] = []
        /// Where each label's counters are in `sources`: a network brings thousands of
        /// labels, and every frame looks its own up.
        var sourceIndex: [String: Int] = [:]
        /// The counts of the sources forgotten, and of labels beyond `maximumSources`.
        var rest = SourceCounts(label: FramePipeline.otherSources)
        var duplicates = DuplicateFilter()
        /// Where the receiver behind a source label is, for sources that are other
        /// receivers (nil inside: not known yet). Sources not listed are this receiver.
        var sourcePositions: [String: GeoPoint?] = [:]

        /// Counts `frame` from `source`, received at `received`, and says whether it is to be
        /// passed on: false, counting it as that source's duplicate, when another source
        /// delivered the same frame just before.
        mutating func admit(_ frame: Frame, from source: String, at received: Double) -> Bool {
            let index = sourceIndex[source] ?? addSource(source)
            if index >= 0 {
                return Self.admit(
                    frame, from: source, at: received, counts: &sources[index], duplicates: &duplicates,
                    counters: &counters)
            }
            return Self.admit(
                frame, from: source, at: received, counts: &rest, duplicates: &duplicates, counters: &counters)
        }

        /// Counts `frame` in `counts`, the counters of its source.
        private static func admit(
            _ frame: Frame, from source: String, at received: Double, counts: inout SourceCounts,
            duplicates: inout DuplicateFilter, counters: inout FrameCounters
        ) -> Bool {
            counts.lastFrame = received
            if !frame.isMultilaterated, duplicates.isDuplicate(frame.bits, from: source, at: received) {
                counts.duplicates += 1
                return false
            }
            counts.frames += 1
            counters.frames += 1
            if frame.correctedBits > 0 { counters.correctedFrames += 1 }
            counters.framesByFormat[frame.downlinkFormat] += 1
            return true
        }

        /// Gives `source` counters of its own and returns where they are, or -1 (counted in
        /// `rest`) when `maximumSources` labels are counted already.
        mutating func addSource(_ source: String) -> Int {
            guard sources.count < FramePipeline.maximumSources else { return -1 }
            sources.append(SourceCounts(label: source))
            sourceIndex[source] = sources.count - 1
            return sources.count - 1
        }

        /// Forgets `source`: its position, and its counters, which join `rest`. The last
        /// counters take its place, so that nothing moves but one entry.
        mutating func forget(_ source: String) {
            sourcePositions[source] = nil
            guard let index = sourceIndex.removeValue(forKey: source) else { return }
            rest.add(sources[index])
            let last = sources.removeLast()
            if index < sources.count {
                sources[index] = last
                sourceIndex[last.label] = index
            }
        }
    }

    private let state = Mutex(State())
    private let taps = Mutex<[Tap]>([])
    private let decoder = MessageDecoder()
    private let downstream: any DecodedFrameSink
    /// The receiver's position, if configured: where the frames of this receiver are heard.
    package let receiver: GeoPoint?
    /// The pipeline's clock: seconds since 1970.
    private let clock: @Sendable () -> Double

    /// A pipeline for a receiver at `receiver` that delivers to `downstream` (the tracker),
    /// keeping time by `clock` (the wall clock; tests pass their own).
    package init(
        receiver: GeoPoint?, downstream: any DecodedFrameSink,
        clock: @escaping @Sendable () -> Double = FramePipeline.wallClock
    ) {
        self.receiver = receiver
        self.downstream = downstream
        self.clock = clock
    }

    /// Adds a tap for admitted frames (the Beast, AVR and MQTT outputs use this).
    package func addTap(_ tap: @escaping Tap) {
        taps.withLock { $0.append(tap) }
    }

    @discardableResult
    package func accept(_ frame: Frame, at time: Double, from source: String) -> Bool {
        let message = decoder.decode(frame)
        let now = clock()
        let received = time.isFinite ? min(time, now) : now
        let heardAt: GeoPoint?? = state.withLock { state in
            guard state.admit(frame, from: source, at: received) else { return nil }
            // Another receiver's frames are positioned from where that receiver is.
            return .some(state.sourcePositions[source] ?? receiver)
        }
        guard let heardAt else { return false }
        let decoded = DecodedFrame(
            frame: frame, message: message, source: source, received: received, heardAt: heardAt)
        for tap in taps.withLock({ $0 }) { tap(decoded) }
        downstream.merge(decoded)
        return true
    }

    package func accept(_ report: StateReport) {
        let now = clock()
        var report = report
        report.lastSeen = report.lastSeen.isFinite ? min(report.lastSeen, now) : now
        report.positionTime = report.positionTime.map { $0.isFinite ? min($0, report.lastSeen) : report.lastSeen }
        state.withLock { $0.counters.stateUpdates += 1 }
        downstream.merge(report)
    }

    package func addLocal(_ block: LocalStatistics) {
        state.withLock { $0.local.add(block) }
    }

    package func setSource(_ name: String?, slot: String) {
        state.withLock { state in
            if let index = state.sourceSlots.firstIndex(where: { $0.slot == slot }) {
                state.sourceSlots[index].name = name
            } else {
                state.sourceSlots.append((slot, name))
            }
        }
    }

    package func setPosition(_ position: GeoPoint?, ofSource source: String) {
        state.withLock { $0.sourcePositions[source] = .some(position) }
    }

    package func forgetSource(_ source: String) {
        state.withLock { $0.forget(source) }
    }

    /// The names of the sources feeding the pipeline now, joined by "+" ("rtl-sdr",
    /// "replay+beast", "opensky"), or "none": reported in every radar frame.
    package var source: String {
        state.withLock { state in
            var names: [String] = []
            for case let name? in state.sourceSlots.map(\.name) where !names.contains(name) { names.append(name) }
            return names.isEmpty ? "none" : names.joined(separator: "+")
        }
    }

    /// What each source delivered so far, in the order they first delivered (until a source
    /// is forgotten: the last takes its place), then `otherSources` when it counted any.
    package var sourceCounts: [SourceCounts] {
        state.withLock { state in
            state.rest.frames > 0 || state.rest.duplicates > 0 ? state.sources + [state.rest] : state.sources
        }
    }

    /// The counters so far.
    package var counters: FrameCounters { state.withLock { $0.counters } }

    /// What the local receiver counted so far (zero with no local receiver).
    package var local: LocalStatistics { state.withLock { $0.local } }

    /// The pipeline's notion of now: its clock.
    package var now: Double { clock() }
}
