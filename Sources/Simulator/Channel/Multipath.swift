/// Reflections: some aircraft reach the antenna twice, directly and off the ground or a
/// building, the copy delayed by 0.1–2 µs and weaker.
///
/// An echo about one chip (0.5 µs) late fills the empty half of each bit with a copy of the
/// pulse before it, at half to three-quarters of its level when it is strong; a longer one
/// smears whole bits. The delay belongs to the aircraft's geometry and stays for the
/// recording; the echo's strength and its phase against the direct path change from reply
/// to reply (the path difference changes by a wavelength, 27 cm, as the aircraft moves a few
/// metres, and the reflection fades), so a strong echo spoils a few replies of an aircraft
/// rather than all of them.
package struct Multipath: Sendable, Equatable {
    /// Share of the aircraft whose replies arrive with an echo (0...1).
    package var fraction: Double
    /// Range of the echo's delay, microseconds.
    package var delayUs: ClosedRange<Double> = 0.1...2.0
    /// Range of how much weaker the echo is than the direct path, dB (drawn per reply).
    package var attenuationDb: ClosedRange<Double> = 4.0...25.0

    /// Echoes for `fraction` of the aircraft.
    package init(fraction: Double) {
        self.fraction = fraction
    }

    /// The echo delay of one aircraft (seconds), or nil for a clean direct path.
    func delay(_ generator: inout SeededGenerator) -> Double? {
        guard generator.chance(fraction) else { return nil }
        return generator.uniform(delayUs.lowerBound, delayUs.upperBound) * 1e-6
    }

    /// The echo of one reply from an aircraft whose echo arrives `delay` seconds late.
    func echo(delay: Double, _ generator: inout SeededGenerator) -> Echo {
        let loss = generator.uniform(attenuationDb.lowerBound, attenuationDb.upperBound)
        return Echo(
            delay: delay, gain: DeterministicMath.powerRatio(decibels: -loss / 2),
            phase: generator.uniform(0, 2 * DeterministicMath.pi))
    }
}

/// A delayed, attenuated copy of a reply.
package struct Echo: Sendable, Equatable {
    /// Delay after the direct path, seconds.
    package var delay: Double
    /// Amplitude relative to the direct path.
    package var gain: Double
    /// Carrier phase relative to the direct path, radians.
    package var phase: Double

    /// An echo `delay` seconds late at `gain` of the direct amplitude and `phase` radians.
    package init(delay: Double, gain: Double, phase: Double) {
        self.delay = delay
        self.gain = gain
        self.phase = phase
    }
}
