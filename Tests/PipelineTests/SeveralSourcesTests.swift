import ModeS
import Pipeline
import TestSupport
import Testing

@testable import Tracking

/// Frames of several sources into one tracker: each counted under its source, a frame two
/// sources heard tracked once, and the radar's source named after all of them.
@Suite struct SeveralSourcesTests {
    let position = ModeSBits(hex: "8D40621D58C382D690C8AC2863A7")!
    let identity = ModeSBits(hex: "8D4840D6202CC371C32CE0576098")!

    @Test func theSameBitsFromAnotherSourceWithinTheWindowAreADuplicate() {
        var filter = DuplicateFilter(window: 2)
        var answers: [Bool] = []
        answers.append(filter.isDuplicate(position, from: "replay", at: 100))
        answers.append(filter.isDuplicate(position, from: "beast-in a", at: 101.5))
        // The same source repeating itself is a new transmission, not a copy.
        answers.append(filter.isDuplicate(position, from: "replay", at: 101.6))
        // Out of the window the other source's copy is news again.
        answers.append(filter.isDuplicate(position, from: "beast-in a", at: 104))
        // Other bits are never held back.
        answers.append(filter.isDuplicate(identity, from: "beast-in a", at: 104))
        #expect(answers == [false, true, false, false, false])
    }

    @Test func memoryStaysWithinTheWindow() {
        var filter = DuplicateFilter(window: 1)
        var bits = position
        for step in 0..<50_000 {
            bits.setByte(4, UInt8(truncatingIfNeeded: step))
            bits.setByte(5, UInt8(truncatingIfNeeded: step >> 8))
            _ = filter.isDuplicate(bits, from: step % 2 == 0 ? "a" : "b", at: Double(step) * 0.001)
        }
        // 1 s of frames at 1,000 a second, and nothing older.
        #expect(filter.remembered <= 1_001)
        #expect(filter.remembered >= 999)
    }

    /// The filter against the rule in its plainest form (`AlwaysIndexed`, below): random
    /// frames from one to three sources, sources falling silent and coming back, times that
    /// jitter back a little, and now and then a clock step back.
    @Test func answersAsThePlainRuleDoesWhateverTheSourcesDo() {
        for round in 0..<20 {
            // Seeded, so a stream that fails can be replayed.
            var generator = SplitMix(state: 0x5EED_0000 + UInt64(round))
            var filter = DuplicateFilter(window: 2)
            var plain = AlwaysIndexed(window: 2)
            var time = 1_000.0
            var mismatches = 0
            var copies = 0
            for step in 0..<3_000 {
                // Phases of one, two and three sources, so the lookup is built and dropped.
                let sources = ["a", "b", "c"].prefix(1 + (step / 400 + round) % 3)
                let source = sources.randomElement(using: &generator)!
                var bits = position
                bits.setByte(5, UInt8.random(in: 0..<40, using: &generator))
                time += Double.random(in: 0..<0.02, using: &generator)
                if Int.random(in: 0..<2_000, using: &generator) == 0 { time -= 3_600 }
                let at = time - Double.random(in: 0..<0.3, using: &generator)
                let expected = plain.isDuplicate(bits, from: source, at: at)
                if expected { copies += 1 }
                if filter.isDuplicate(bits, from: source, at: at) != expected { mismatches += 1 }
            }
            #expect(mismatches == 0, "round \(round): \(mismatches) answers differ")
            // The streams do hold copies to recognise.
            #expect(copies > 100)
        }
    }

    /// The duplicate rule with every frame kept looked up by its bits: the newest frame
    /// recorded of the same bits, from another source within the window, makes a copy.
    /// Frames are forgotten from the oldest on while older than the window.
    private struct AlwaysIndexed {
        let window: Double
        var seen: [ModeSBits: (time: Double, source: String)] = [:]
        var order: [(bits: ModeSBits, time: Double)] = []

        mutating func isDuplicate(_ bits: ModeSBits, from source: String, at time: Double) -> Bool {
            if let newest = order.last?.time, time < newest - max(window, DuplicateFilter.clockStep) {
                seen = [:]
                order = []
            }
            while let first = order.first, first.time < time - window {
                if seen[first.bits]?.time == first.time { seen[first.bits] = nil }
                order.removeFirst()
            }
            if let earlier = seen[bits], earlier.source != source, abs(time - earlier.time) <= window { return true }
            seen[bits] = (time, source)
            order.append((bits, time))
            return false
        }
    }

    @Test func oneSourceNeedsNoLookupAndASecondBuildsItUntilItFallsSilent() {
        var filter = DuplicateFilter(window: 2)
        var bits = position
        var copies = 0
        for step in 0..<100 {
            bits.setByte(5, UInt8(step))
            if filter.isDuplicate(bits, from: "rtl-sdr", at: 100 + Double(step) * 0.01) { copies += 1 }
        }
        #expect(copies == 0)
        #expect(!filter.isIndexed)
        // A second source's copy of the newest frame is recognised...
        let copy = filter.isDuplicate(bits, from: "beast-in", at: 101)
        #expect(copy)
        #expect(filter.isIndexed)
        // ...and once it has been silent for longer than the window, the lookup goes.
        bits.setByte(5, 200)
        let news = filter.isDuplicate(bits, from: "rtl-sdr", at: 104)
        #expect(!news)
        #expect(!filter.isIndexed)
    }

    @Test func eachSourceIsCountedAndADuplicateOnlyOnce() {
        // The tracker's clock runs ahead of the frames, so none is cut back to it.
        let tracker = WiredTracker(receiver: nil, clock: { 1_010 })
        var now = 1_000.0
        #expect(tracker.accept(Frame(bits: position, address: 0x40621D), at: now, from: "replay"))
        #expect(!tracker.accept(Frame(bits: position, address: 0x40621D), at: now, from: "beast-in b:30005"))
        #expect(tracker.accept(Frame(bits: identity, address: 0x4840D6), at: now, from: "beast-in b:30005"))
        now += 5
        #expect(tracker.accept(Frame(bits: position, address: 0x40621D), at: now, from: "beast-in b:30005"))
        let counts = tracker.sourceCounts
        #expect(counts.map(\.label) == ["replay", "beast-in b:30005"])
        #expect(counts.map(\.frames) == [1, 2])
        #expect(counts.map(\.duplicates) == [0, 1])
        #expect(counts[1].summary == "beast-in b:30005 2 frames (1 duplicates)")
        #expect(tracker.counters.frames == 3, "the duplicate is not a message of its own")
        #expect(tracker.snapshot().aircraft.count == 2)
    }

    @Test func multilaterationResultsAreNeverDuplicates() {
        let tracker = WiredTracker(receiver: nil, clock: { 1_000 })
        #expect(tracker.accept(Frame(bits: position, address: 0x40621D), at: 1_000, from: "rtl-sdr"))
        #expect(
            tracker.accept(
                Frame(bits: position, address: 0x40621D, isMultilaterated: true), at: 1_000, from: "beast-listen :30104"
            ))
    }

    @Test func theRadarsSourceNamesEveryKindFeedingIt() {
        let tracker = WiredTracker(receiver: nil)
        #expect(tracker.source == "none")
        tracker.setSource("rtl-sdr", slot: "dongle")
        tracker.setSource("beast", slot: "beast-in a:1")
        tracker.setSource("beast", slot: "beast-in b:2")
        #expect(tracker.source == "rtl-sdr+beast")
        tracker.setSource("opensky", slot: "dongle")
        #expect(tracker.source == "opensky+beast")
        tracker.setSource(nil, slot: "dongle")
        #expect(tracker.source == "beast")
    }
}

/// A pipeline fed by more source labels than it keeps: the counts stay bounded and none is
/// lost.
@Suite struct ManySourcesTests {
    @Test func sourceCountsStayBoundedWithTheRestSummed() {
        let tracker = WiredTracker(receiver: nil, clock: { 1_000_000 })
        var bits = ModeSBits(hex: "5D4840D6202CC3")!
        for index in 0..<30_000 {
            bits.setByte(1, UInt8(truncatingIfNeeded: index))
            bits.setByte(2, UInt8(truncatingIfNeeded: index >> 8))
            tracker.accept(Frame(bits: bits, address: 0), at: 1_000, from: "mqtt r\(index)")
        }
        let counts = tracker.sourceCounts
        #expect(counts.count <= 20_001, "\(counts.count) labels kept")
        #expect(counts.reduce(0) { $0 + $1.frames + $1.duplicates } == 30_000)
    }

    @Test func aForgottenSourceLosesItsPositionAndItsCountsJoinTheRest() {
        let tracker = WiredTracker(receiver: GeoPoint(latitude: 40, longitude: 10), clock: { 1_000 })
        tracker.setPosition(GeoPoint(latitude: 52.3, longitude: 4.7), ofSource: "mqtt alpha")
        tracker.accept(
            Frame(bits: ModeSBits(hex: "8D4840D6202CC371C32CE0576098")!, address: 0), at: 990, from: "mqtt alpha")
        tracker.forgetSource("mqtt alpha")
        #expect(tracker.sourceCounts.map(\.label) == [FramePipeline.otherSources])
        #expect(tracker.sourceCounts.first?.frames == 1)
        // Heard again, it is a receiver whose position is not known: positioned from here, 1,500 km
        // from the aircraft, out of range.
        for hex in ["8D40621D58C382D690C8AC2863A7", "8D40621D58C386435CC412692AD6"] {
            tracker.accept(Frame(bits: ModeSBits(hex: hex)!, address: 0x40621D), at: 1_000, from: "mqtt alpha")
        }
        #expect(tracker.snapshot().aircraft.allSatisfy { $0.position == nil })
        #expect(tracker.sourceCounts.map(\.label) == ["mqtt alpha", FramePipeline.otherSources])
    }

    @Test func theStatisticsLineListsTheBusiestSourcesAndSumsTheRest() {
        let counts = (0..<20_000).map { index in
            var counts = SourceCounts(label: "mqtt r\(index)")
            counts.frames = index
            return counts
        }
        let listed = SourceCounts.busiest(counts, limit: 20)
        #expect(listed.count == 21 && listed.first?.label == "mqtt r19999")
        #expect(listed.last?.summary == "19980 more sources \(19_979 * 19_980 / 2) frames")
        #expect(listed.map(\.summary).joined(separator: ", ").utf8.count < 1_000)
    }
}
