import ModeSDemod
import Testing

@testable import Receivers

/// The governor (`DemodulatorGovernor`): down at once when over budget or falling behind, up
/// one level at a time when the level above is expected to fit, and slower to climb again
/// after a climb that did not hold.
@Suite struct DemodulatorGovernorTests {
    /// Feeds `seconds` of air in blocks of 0.2 s at `load` (share of a core per second of air)
    /// at the governor's current level, scaled by the level's relative cost; returns the changes.
    static func run(
        _ governor: inout DemodulatorGovernor, seconds: Double, fullLoad: Double, ringFill: Double = 0
    ) -> [DemodulatorGovernor.Change] {
        var changes: [DemodulatorGovernor.Change] = []
        for _ in 0..<Int(seconds / 0.2) {
            let load = fullLoad * DemodulatorGovernor.relativeCost[governor.level.rawValue]
            if let change = governor.observe(cpuSeconds: load * 0.2, airSeconds: 0.2, ringFill: ringFill) {
                changes.append(change)
            }
        }
        return changes
    }

    @Test func withinBudgetItStaysAtFull() {
        var governor = DemodulatorGovernor(budget: 0.4)
        #expect(Self.run(&governor, seconds: 600, fullLoad: 0.3).isEmpty)
        #expect(governor.level == .full)
        #expect(governor.load.map { abs($0 - 0.3) < 1e-9 } == true)
    }

    @Test func overBudgetItStepsDownUntilItFitsAndStaysThere() {
        var governor = DemodulatorGovernor(budget: 0.4)
        // Full costs 0.6 of a core: 0.98 x 0.6 = 0.59, 0.74 x 0.6 = 0.44 and 0.645 x 0.6 = 0.387
        // fits: straight there, in one step at the first window.
        let changes = Self.run(&governor, seconds: 60, fullLoad: 0.6)
        #expect(changes.map(\.to.rawValue) == [1])
        #expect(changes.allSatisfy { $0.reason.contains("budget 40%") })
        #expect(governor.level == DemodulatorLevel(1))
        // 0.387 x 0.74 / 0.645 = 0.44 above: over 80% of the budget, so it never climbs.
        #expect(Self.run(&governor, seconds: 1_800, fullLoad: 0.6).isEmpty)
    }

    @Test func aFillingRingStepsDownAtOnceButNotEveryBlock() {
        var governor = DemodulatorGovernor(budget: 0.4)
        // A fair part of the budget, and the ring fills: the computer is busy with something
        // else, and a cheaper demodulator catches up sooner.
        let changes = Self.run(&governor, seconds: 1.4, fullLoad: 0.15, ringFill: 0.75)
        #expect(changes.count == 2, "\(changes.map(\.reason))")
        #expect(changes.first?.reason.contains("ring is 75% full") == true)
        let emptied = Self.run(&governor, seconds: 60, fullLoad: 0.15)
        #expect(emptied.allSatisfy { $0.to > $0.from })
        #expect(governor.level == .full, "climbs back once the ring is empty and there is room")
    }

    @Test func aDemodulatorFarTooSlowForItsComputerStepsStraightToALevelThatKeepsUp() {
        // The full level needs two cores (a dense sky at 32 times real time): the ring (1.75 s
        // of samples) fills by a second of samples a second. One level at a time (1.96 cores,
        // then 1.48), it would overflow before reaching one that keeps up; the cost measured
        // so far sends it straight to the plain path (0.98).
        var governor = DemodulatorGovernor(budget: 1)
        var backlog = 0.0
        var deepest = 0.0
        var changes: [DemodulatorGovernor.Change] = []
        for _ in 0..<50 {
            let load = 2 * DemodulatorGovernor.relativeCost[governor.level.rawValue]
            backlog = max(0, backlog + 0.2 * (load - 1))
            deepest = max(deepest, backlog)
            let fill = min(1, backlog / 1.75)
            if let change = governor.observe(cpuSeconds: load * 0.2, airSeconds: 0.2, ringFill: fill) {
                changes.append(change)
            }
        }
        #expect(changes.map(\.to) == [.plain], "\(changes.map(\.reason))")
        #expect(changes.first?.reason.contains("at 200% of a core") == true, "\(changes.map(\.reason))")
        #expect(deepest < 1.75, "the ring never overflowed: at most \(deepest) s of samples waited")
    }

    @Test func aRingStillRisingAfterAStepStepsAgainAtOnce() {
        var governor = DemodulatorGovernor(budget: 1)
        // Half full after one block at 102% of a core: one level down (98% of that fits).
        let first = governor.observe(cpuSeconds: 1.02 * 0.2, airSeconds: 0.2, ringFill: 0.5)
        #expect(first?.to == DemodulatorLevel(3), "\(String(describing: first))")
        // Still rising: that was not enough, and the next block's cost (130%) says how far.
        let second = governor.observe(cpuSeconds: 1.3 * 0.2, airSeconds: 0.2, ringFill: 0.75)
        #expect(second?.to == DemodulatorLevel(2), "\(String(describing: second))")
        // Full as much, no longer rising: it waits for the step to tell.
        #expect(governor.observe(cpuSeconds: 0.2, airSeconds: 0.2, ringFill: 0.75) == nil)
    }

    @Test func aRingFilledWhileTheDemodulatorCostsLittleIsNoReasonToStepDown() {
        var governor = DemodulatorGovernor(budget: 0.4)
        // 3% of a core: the ring filled because the thread waited for the processor.
        #expect(Self.run(&governor, seconds: 4, fullLoad: 0.03).isEmpty)
        #expect(Self.run(&governor, seconds: 10, fullLoad: 0.03, ringFill: 0.75).isEmpty)
        #expect(governor.level == .full)
    }

    @Test func itClimbsOneLevelAtATimeWithAHoldBetween() {
        var governor = DemodulatorGovernor(budget: 0.4, level: .plain)
        let changes = Self.run(&governor, seconds: 60, fullLoad: 0.2)
        #expect(changes.map(\.to.rawValue) == [1, 2, 3, 4])
        // The first climb at the first window (no change yet), the others a hold (10 s) apart.
        #expect(governor.level == .full)
    }

    @Test func aClimbThatDoesNotHoldDoublesTheWaitBeforeTheNext() {
        var governor = DemodulatorGovernor(budget: 0.4, level: DemodulatorLevel(3)!)
        // At level 3 the load is 0.28, so full is expected at 0.28 / 0.98 = 0.29 <= 0.8 x 0.4:
        // it climbs, but on this sky full costs more than its share (the ratio table is only a
        // guess): 0.405, just over the budget, and back to level 3 (0.98 x 0.405 fits).
        var climbs = 0
        var downs = 0
        var air = 0.0
        while air < 600 {
            let load = governor.level == .full ? 0.405 : 0.28
            if let change = governor.observe(cpuSeconds: load * 0.2, airSeconds: 0.2, ringFill: 0) {
                if change.to > change.from { climbs += 1 } else { downs += 1 }
            }
            air += 0.2
        }
        // Holds of 10, 20, 40, 80, 160, 320 s of air (plus the windows): at most seven climbs
        // in ten minutes rather than one every 12 s.
        #expect(climbs >= 4 && climbs <= 7, "\(climbs) climbs")
        #expect(downs == climbs || downs == climbs - 1)
    }

    @Test func atAPaceTheCostIsCountedAsOnAComputerThatMuchSlower() {
        // 5% of a core per second of samples, delivered 16 times faster than real time: 80%
        // of a core on a computer 16 times slower, where only the plain path (0.49 x 0.8 =
        // 0.39) fits 40%.
        var governor = DemodulatorGovernor(budget: 0.4, pace: 16)
        let changes = Self.run(&governor, seconds: 10, fullLoad: 0.05)
        #expect(changes.map(\.to) == [.plain])
        #expect(changes.first?.reason.contains("at 80% of a core") == true)
        var real = DemodulatorGovernor(budget: 0.4)
        #expect(Self.run(&real, seconds: 10, fullLoad: 0.05).isEmpty, "the same cost in real time fits")
    }

    @Test func hostileMeasurementsAreIgnored() {
        var governor = DemodulatorGovernor(budget: 0.4)
        #expect(governor.observe(cpuSeconds: .nan, airSeconds: 0.2, ringFill: 0) == nil)
        #expect(governor.observe(cpuSeconds: -1, airSeconds: 0.2, ringFill: 0) == nil)
        #expect(governor.observe(cpuSeconds: 1, airSeconds: 0, ringFill: 0) == nil)
        #expect(governor.level == .full)
    }
}
