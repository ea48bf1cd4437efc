import Foundation
import ModeS
import Pipeline
import Synchronization
import TestSupport
import Testing

@testable import Tracking

/// The tracker keeps the wall clock, and nothing a source says moves it.
@Suite struct TrackerClockTests {
    /// A clock the test sets.
    final class TestClock: Sendable {
        private let time = Mutex(1_000_000.0)
        var now: Double { time.withLock { $0 } }
        func set(_ value: Double) { time.withLock { $0 = value } }
        var read: @Sendable () -> Double { { self.now } }
    }

    func frame(_ hex: String) throws -> Frame {
        try #require(FrameValidator(trustAddressParity: true).validatingCopy(hex: hex))
    }

    @Test func aFrameFromTheFutureDoesNotMoveTheClock() throws {
        let clock = TestClock()
        let tracker = WiredTracker(receiver: nil, clock: clock.read)
        tracker.accept(try frame("8D40621D58C386435CC412692AD6"), at: clock.now)
        // A sender's 12 MHz counter at its maximum, read as seconds: months ahead.
        tracker.accept(try frame("8D4840D6202CC371C32CE0576098"), at: clock.now + Double(0xFFFF_FFFF_FFFF) / 12e6)
        tracker.accept(try frame("8D4840D6202CC371C32CE0576098"), at: .infinity)
        #expect(tracker.now == clock.now)
        #expect(tracker.expire() == 0)
        let snapshot = tracker.snapshot()
        #expect(snapshot.time == clock.now)
        #expect(snapshot.aircraft.map(\.icaoHex) == ["40621d", "4840d6"])
        #expect(snapshot.aircraft.allSatisfy { $0.lastSeen == clock.now }, "future times are taken as now")
    }

    @Test func aircraftAgeByTheWallClockAlone() throws {
        let clock = TestClock()
        let tracker = WiredTracker(receiver: nil, clock: clock.read)
        tracker.accept(try frame("8D40621D58C386435CC412692AD6"), at: clock.now)
        clock.set(clock.now + Tracker.expireAfter - 1)
        #expect(tracker.snapshot().aircraft.count == 1)
        clock.set(clock.now + 2)
        #expect(tracker.snapshot().aircraft.isEmpty)
        #expect(tracker.expire() == 1)
    }

    @Test func aClockSteppedBackLeavesNoAircraftLookingFresh() throws {
        let clock = TestClock()
        let tracker = WiredTracker(receiver: nil, clock: clock.read)
        tracker.accept(try frame("8D40621D58C386435CC412692AD6"), at: clock.now)
        // An hour back (a clock set by hand, an NTP step, a machine resumed).
        clock.set(clock.now - 3_600)
        #expect(tracker.snapshot().aircraft.isEmpty)
        #expect(tracker.expire() == 1)
        // Heard again, it is back at once.
        tracker.accept(try frame("8D40621D58C386435CC412692AD6"), at: clock.now)
        #expect(tracker.snapshot().aircraft.count == 1)
    }

    @Test func theDuplicateFilterStartsAfreshWhenTheClockStepsBack() throws {
        var filter = DuplicateFilter(window: 2)
        let bits = try #require(ModeSBits(hex: "8D40621D58C386435CC412692AD6"))
        for step in 0..<100 {
            _ = filter.isDuplicate(ModeSBits(hex: String(format: "5D%06X000000", step))!, from: "a", at: 1_000_000)
        }
        let first = filter.isDuplicate(bits, from: "a", at: 1_000_000)
        #expect(!first)
        // An hour back: what was recorded is forgotten, and the same bits from another
        // source an hour "earlier" are not taken for a copy.
        let afterTheStep = filter.isDuplicate(bits, from: "b", at: 1_000_000 - 3_600)
        #expect(!afterTheStep)
        #expect(filter.remembered == 1)
        let copy = filter.isDuplicate(bits, from: "a", at: 1_000_000 - 3_599)
        #expect(copy)
    }

    @Test func aSourceSecondsBehindTheOthersIsNotAClockStep() throws {
        var filter = DuplicateFilter(window: 2)
        let bits = try #require(ModeSBits(hex: "8D40621D58C386435CC412692AD6"))
        let other = try #require(ModeSBits(hex: "5D40621D000000"))
        let first = filter.isDuplicate(bits, from: "a", at: 1_000)
        // A source five seconds behind delivers something in between...
        let late = filter.isDuplicate(other, from: "late", at: 995)
        // ...and the copy of the first frame from a third source is still recognised.
        let copy = filter.isDuplicate(bits, from: "b", at: 1_000.1)
        #expect(!first && !late)
        #expect(copy)
    }

    @Test func stateVectorsFromTheFutureAreTakenAsNow() {
        let clock = TestClock()
        let tracker = WiredTracker(receiver: nil, clock: clock.read)
        var vector = StateReport(icao: 0x3C6444, lastSeen: clock.now + 86_400 * 30)
        vector.position = GeoPoint(latitude: 50, longitude: 8)
        vector.positionTime = .nan
        tracker.accept(vector)
        let state = tracker.snapshot().aircraft.first
        #expect(state?.lastSeen == clock.now)
        #expect(state?.positionTime == clock.now)
    }

    @Test func multilaterationResultsAreMarkedAndGiveWayToADSB() throws {
        var tracker = Tracker()
        // An airborne position pair and a velocity, as a multilateration server sends them.
        tracker.merge(try message("8D40621D58C382D690C8AC2863A7"), at: 10, multilaterated: true)
        tracker.merge(try message("8D40621D58C386435CC412692AD6"), at: 11, multilaterated: true)
        tracker.merge(try message("8D485020994409940838175B284F"), at: 11, multilaterated: true)
        var state = try #require(tracker.state(of: 0x40621D))
        #expect(state.source == .mlat)
        #expect(state.addressType == .mlat)
        #expect(state.fieldSources.jsonNames { $0 == .mlat } == ["lat", "lon", "alt_baro", "nic", "rc"])
        #expect(
            try #require(tracker.state(of: 0x485020)).fieldSources.jsonNames { $0 == .mlat }
                == ["gs", "track", "geom_rate", "nac_v"])
        // The aircraft's own report replaces the altitude and takes the source.
        tracker.merge(try message("8D40621D58C382D690C8AC2863A7"), at: 12)
        state = try #require(tracker.state(of: 0x40621D))
        #expect(state.source == .adsb)
        #expect(state.addressType == .adsbICAO)
        #expect(state.fieldSources[.altitudeBaro]?.type == .adsbICAO)
        #expect(!state.fieldSources.jsonNames { $0 == .mlat }.contains("alt_baro"))
    }

    func message(_ hex: String) throws -> Message {
        MessageDecoder().decode(try frame(hex))
    }
}
