import ModeSDemod

/// Keeps the demodulator within a budget of processor time by moving it along the
/// `DemodulatorLevel` ladder: down as soon as it costs more than the budget or the sample ring
/// starts to fill (straight to the level its cost so far says fits), back up, one level at a
/// time, when the level above is expected to fit.
///
/// Why a budget and not "as much as the computer can do": a small computer (a Raspberry Pi)
/// also runs the tracker, the outputs and the web server, and a demodulator that takes a whole
/// core leaves them none, while the dongle keeps delivering. Why levels and not drops: a
/// dropped block of samples loses every reply in it, a technique left out only the few replies
/// that only it recovers.
///
/// A state machine with the time passed in: the samples' own time (seconds of air), so that
/// a replay at N times real time is governed exactly like a dongle on a computer N times
/// slower.
package struct DemodulatorGovernor: Sendable {
    /// What it decided, and why.
    package struct Change: Sendable, Equatable {
        /// The level before.
        package let from: DemodulatorLevel
        /// The level now.
        package let to: DemodulatorLevel
        /// One line for the log: "at 52% of a core, budget 40%".
        package let reason: String
    }

    /// The budget, as a share of one core (0.4: 40 %).
    package let budget: Double
    /// Seconds of samples per second of wall time (a replay's speed): measured time counts
    /// this many times, as on a computer that much slower.
    package let pace: Double
    /// The level now.
    package private(set) var level: DemodulatorLevel

    /// Seconds of air over which the cost is measured: long enough that one burst of replies
    /// does not move the level, short enough to react before the ring (under a second of
    /// samples) would fill.
    static let window = 2.0
    /// Seconds of air to wait after a change before climbing again, at first. Doubled after
    /// each climb that had to be taken back, up to `longestHold`, so a demodulator just at
    /// the edge of its budget does not swing between two levels every few seconds.
    static let shortestHold = 10.0
    /// The longest wait before trying to climb again.
    static let longestHold = 640.0
    /// A climb taken back within this many seconds failed (its hold doubles); one that held
    /// this long succeeded (the hold is back to the shortest).
    static let climbProbation = 60.0
    /// A level is climbed to only when its expected cost is at most this share of the budget:
    /// the margin keeps a busy minute from sending it straight back.
    static let climbMargin = 0.8
    /// The ring fill (0 to 1) at which the demodulator steps down at once, whatever the
    /// window's measured cost: half of the ring is about 0.87 s of samples at 2.4 MS/s, the
    /// other half the room it has to catch up in.
    static let ringAlarm = 0.5
    /// A filling ring steps the demodulator down only while its measured cost is at least this
    /// share of the budget. Below it, the demodulator is too small a part of the computer's
    /// work for a lower level to help: the ring filled because the thread was not scheduled
    /// for a moment (a busy computer), and once it runs it catches up in a fraction of the
    /// time the samples took.
    static let ringAlarmCost = 0.25
    /// Seconds of air measured since the last change from which a filling ring takes the cost
    /// that chooses how far to step down; before that, the last block's own cost.
    static let shortestMeasure = 0.5

    /// The instructions each level executes as a share of the full level's, on the dense sky
    /// of `make bench` (see `DemodulatorLevel`): what a climb is expected to cost. A sky
    /// that makes one technique busier than that one does is found out by the climb's
    /// probation.
    static let relativeCost = [0.49, 0.645, 0.74, 0.98, 1.0]

    private var cpu = 0.0
    private var air = 0.0
    private var now = 0.0
    private var lastChange = -Double.infinity
    /// The ring's fill when the level last changed.
    private var fillAtChange = 0.0
    private var lastClimb: Double?
    private var hold = shortestHold
    /// The cost measured over the last full window, as a share of a core (counted `pace`
    /// times).
    package private(set) var load: Double?

    /// A governor holding the demodulator within `budget` (a share of one core), starting at
    /// `level`, for samples arriving `pace` times faster than real time (1 for a dongle).
    package init(budget: Double, level: DemodulatorLevel = .full, pace: Double = 1) {
        self.budget = budget
        self.level = level
        self.pace = pace.isFinite && pace > 0 ? pace : 1
    }

    /// Takes one block: `cpuSeconds` of processor time spent demodulating `airSeconds` of
    /// samples, with the ring `ringFill` full (0 to 1) after it. Returns the change to make,
    /// if any.
    package mutating func observe(cpuSeconds: Double, airSeconds: Double, ringFill: Double) -> Change? {
        guard airSeconds > 0, cpuSeconds.isFinite, cpuSeconds >= 0 else { return nil }
        cpu += cpuSeconds * pace
        air += airSeconds
        now += airSeconds
        if let lastClimb, now - lastClimb >= Self.climbProbation {
            self.lastClimb = nil
            hold = Self.shortestHold
        }
        // A filling ring steps down at once, and again before the usual second if it keeps
        // rising: a step that did not stop it was not enough.
        if ringFill >= Self.ringAlarm, now - lastChange >= Self.window / 2 || ringFill > fillAtChange,
            level > .plain, (load ?? budget) >= budget * Self.ringAlarmCost
        {
            // How far down is said by what the window has measured since the last change, or
            // this block's own cost when that is too short to trust. One level at a time, a
            // demodulator far too slow for its computer would fill the ring before it reached
            // a level that keeps up. One thread demodulates: past one core it cannot keep up,
            // whatever the budget.
            let sofar = air >= Self.shortestMeasure ? cpu / air : cpuSeconds * pace / airSeconds
            let percent = Int((ringFill * 100).rounded())
            return move(
                to: fitting(sofar, within: min(budget, 1)), ringFill: ringFill,
                reason: "falling behind: the sample ring is \(percent)% full, at \(Self.percent(sofar)) of a core, "
                    + "budget \(Self.percent(budget))")
        }
        guard air >= Self.window else { return nil }
        let load = cpu / air
        self.load = load
        (cpu, air) = (0, 0)
        if load > budget, level > .plain {
            return move(
                to: fitting(load, within: budget), ringFill: ringFill,
                reason: "at \(Self.percent(load)) of a core, budget \(Self.percent(budget))")
        }
        guard let higher = level.higher, now - lastChange >= hold else { return nil }
        let expected = load * Self.relativeCost[higher.rawValue] / Self.relativeCost[level.rawValue]
        guard expected <= budget * Self.climbMargin else { return nil }
        lastClimb = now
        return move(
            to: higher, ringFill: ringFill,
            reason: "at \(Self.percent(load)) of a core, about \(Self.percent(expected)) expected above, "
                + "budget \(Self.percent(budget))")
    }

    /// The highest level below this one expected (by `relativeCost`) to cost at most `limit`
    /// at `load`, else the plain path: one step down to where the demodulator fits, rather
    /// than a window's worth of samples lost at each level on the way.
    private func fitting(_ load: Double, within limit: Double) -> DemodulatorLevel {
        var candidate = level.lower ?? .plain
        while candidate > .plain,
            load * Self.relativeCost[candidate.rawValue] / Self.relativeCost[level.rawValue] > limit,
            let lower = candidate.lower
        {
            candidate = lower
        }
        return candidate
    }

    private mutating func move(to next: DemodulatorLevel, ringFill: Double, reason: String) -> Change {
        if next < level, lastClimb != nil {
            // The climb did not hold: wait longer before the next one.
            hold = min(hold * 2, Self.longestHold)
            lastClimb = nil
        }
        let change = Change(from: level, to: next, reason: reason)
        level = next
        lastChange = now
        fillAtChange = ringFill
        (cpu, air) = (0, 0)
        return change
    }

    /// "52%".
    private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}
