/// Chooses the tuner's gain from what the samples show (`--gain adaptive`, the default).
///
/// Two things decide a receiver's gain. Too little, and the converter's own noise (its 8 bits
/// and its circuitry, which no gain scales) sits on top of the radio noise and buries the
/// distant aircraft; too much, and the nearby ones are cut flat at the converter's rails, while
/// the distant ones gain nothing: once the radio noise is well above the converter's, more gain
/// lifts signal and noise alike. So the controller keeps the noise floor in a window
/// (`noiseWindow`) whose bottom puts the radio noise several dB above the converter's, and
/// steps down from there while too many samples are clipped, but never so far that the noise
/// floor drops more than `clippingAllowanceDB` below the window (the distant aircraft are the
/// many; a clipped close one usually still decodes).
///
/// Moves:
/// - Far from the window, it jumps: the noise floor follows the gain decibel for decibel once
///   the radio noise dominates, so the gain moves by the distance to the window's middle (to
///   the nearest step the tuner has). Where the converter's noise dominates the floor hardly
///   moves with the gain, and the same jump is simply repeated; from the lowest gain the window
///   is reached in a handful of moves.
/// - For clipping it steps down one tuner step at a time, and remembers the gain that clipped
///   as a ceiling that moves up may not reach, so that it does not climb straight back into
///   the clipping once the noise floor asks for more gain. The ceiling lapses after
///   `ceilingSeconds` (the loud aircraft has long landed or gone); the next climb then finds out
///   whether it still holds.
/// - After a move, the next measurement is skipped (it holds samples from before the change).
/// - It moves up only after `patience` measurements in a row ask for it, down after one (a
///   clipped reply is lost now). Once the gain has held for `settleSeconds`, it is settled: then
///   any move needs `settledPatience` measurements in a row, so a passing loud aircraft or a
///   burst of interference does not start it hunting.
///
/// A state machine with the time passed in: no clock, no device. The source feeds it one
/// `GainMeasurement` a second and sets the gain it returns.
package struct GainController: Sendable {
    /// The tuner's gains, dB, ascending, within the bounds.
    package let steps: [Double]
    /// The noise floor it aims for, dBFS.
    package var noiseWindow: ClosedRange<Double> = -34...(-28)
    /// The clipped share above which it steps down (1 in 10,000 samples: a few strong replies
    /// a second cut flat).
    package var maximumClippedShare = 1e-4
    /// How far below the window clipping may push the noise floor, dB.
    package var clippingAllowanceDB = 4.0
    /// Measurements in a row that must ask for a move up before it is made.
    package var patience = 2
    /// The same, once settled, for any move.
    package var settledPatience = 5
    /// Seconds the gain must hold to count as settled.
    package var settleSeconds = 10.0
    /// Seconds a clipping ceiling holds.
    package var ceilingSeconds = 1800.0

    /// The gain now, dB.
    package private(set) var gain: Double
    /// Whether the gain has held long enough to count as settled.
    package private(set) var settled = false
    /// Moves made since the start.
    package private(set) var changes = 0
    private var lastChange: Double?
    private var skipNext = false
    private var upVotes = 0
    private var downVotes = 0
    /// The lowest gain seen clipping, and when: moves up stay below it.
    private var ceiling: (gain: Double, since: Double)?

    /// A controller over the tuner's `steps` (dB, any order), kept within `bounds`, starting at
    /// the step nearest `start` (the remembered gain, or the highest).
    package init(steps: [Double], bounds: ClosedRange<Double> = -100...100, start: Double? = nil) {
        let inside = steps.filter { bounds.contains($0) }.sorted()
        // Bounds between two steps keep the nearest step rather than none.
        let usable = inside.isEmpty ? [Self.nearest(to: bounds.lowerBound, in: steps.sorted())] : inside
        self.steps = usable
        gain = Self.nearest(to: start ?? usable.last!, in: usable)
    }

    /// Takes the measurement of the interval ending at `now` (seconds, any origin); returns the
    /// gain to set when it decides to move, nil to keep the present one.
    package mutating func update(_ measurement: GainMeasurement, now: Double) -> Double? {
        if lastChange == nil { lastChange = now }
        if skipNext || measurement.samples == 0 {
            skipNext = false
            return nil
        }
        settled = now - (lastChange ?? now) >= settleSeconds
        if let ceiling, now - ceiling.since > ceilingSeconds { self.ceiling = nil }
        let wanted = target(for: measurement)
        upVotes = wanted > gain ? upVotes + 1 : 0
        downVotes = wanted < gain ? downVotes + 1 : 0
        let needed = settled ? settledPatience : (wanted > gain ? patience : 1)
        guard wanted != gain, max(upVotes, downVotes) >= needed else { return nil }
        if wanted < gain, measurement.clippedShare > maximumClippedShare {
            ceiling = (min(ceiling?.gain ?? .infinity, gain), now)
        }
        gain = wanted
        changes += 1
        lastChange = now
        settled = false
        skipNext = true
        upVotes = 0
        downVotes = 0
        return gain
    }

    /// The step this measurement asks for (the present gain when it asks for nothing).
    private func target(for measurement: GainMeasurement) -> Double {
        let noise = measurement.noiseDBFS
        let middle = (noiseWindow.lowerBound + noiseWindow.upperBound) / 2
        if noise > noiseWindow.upperBound { return jump(by: middle - noise) }
        if measurement.clippedShare > maximumClippedShare {
            // The floor falls at most decibel for decibel with the gain.
            let lower = step(-1)
            return noise - (gain - lower) >= noiseWindow.lowerBound - clippingAllowanceDB ? lower : gain
        }
        if noise < noiseWindow.lowerBound, measurement.clippedShare < maximumClippedShare / 4 {
            let up = jump(by: middle - noise)
            guard let ceiling else { return up }
            let highest = steps.last { $0 < ceiling.gain } ?? steps[0]
            return max(gain, min(up, highest))
        }
        return gain
    }

    /// The step nearest `gain + decibels`, at least one step away in that direction when
    /// there is one.
    private func jump(by decibels: Double) -> Double {
        let nearest = Self.nearest(to: gain + decibels, in: steps)
        if decibels > 0, nearest <= gain { return step(1) }
        if decibels < 0, nearest >= gain { return step(-1) }
        return nearest
    }

    /// The step `offset` steps from the present one, kept within the table.
    private func step(_ offset: Int) -> Double {
        let index = steps.firstIndex(of: gain) ?? 0
        return steps[min(steps.count - 1, max(0, index + offset))]
    }

    private static func nearest(to value: Double, in steps: [Double]) -> Double {
        steps.min { abs($0 - value) < abs($1 - value) } ?? value
    }
}
