/// Reflections: some aircraft reach the antenna twice, directly and off the ground or a
/// building, the copy delayed by 0.1–2 µs and a few dB weaker.
///
/// An echo about one chip (0.5 µs) late fills the empty half of each bit with a copy of the
/// pulse before it, at half to three-quarters of its level; a longer one smears whole bits.
/// The path difference changes by a wavelength (27 cm) as the aircraft moves a few metres,
/// so the echo's phase against the direct path is new for every reply, while its delay and
/// strength belong to the aircraft's geometry and stay.
public struct Multipath: Sendable, Equatable {
    /// Share of the aircraft whose replies arrive with an echo (0...1).
    public var fraction: Double
    /// Range of the echo's delay, microseconds.
    public var delayUs: ClosedRange<Double> = 0.1...2.0
    /// Range of how much weaker the echo is than the direct path, dB.
    public var attenuationDb: ClosedRange<Double> = 4.0...20.0

    /// Echoes for `fraction` of the aircraft.
    public init(fraction: Double) {
        self.fraction = fraction
    }

    /// The echo geometry of one aircraft, or nil for a clean direct path.
    func geometry(_ generator: inout SeededGenerator) -> Echo? {
        guard generator.chance(fraction) else { return nil }
        let delay = generator.uniform(delayUs.lowerBound, delayUs.upperBound) * 1e-6
        let loss = generator.uniform(attenuationDb.lowerBound, attenuationDb.upperBound)
        return Echo(delay: delay, gain: DeterministicMath.powerRatio(decibels: -loss / 2), phase: 0)
    }
}

/// A delayed, attenuated copy of a reply.
public struct Echo: Sendable, Equatable {
    /// Delay after the direct path, seconds.
    public var delay: Double
    /// Amplitude relative to the direct path.
    public var gain: Double
    /// Carrier phase relative to the direct path, radians.
    public var phase: Double

    /// An echo `delay` seconds late at `gain` of the direct amplitude and `phase` radians.
    public init(delay: Double, gain: Double, phase: Double) {
        self.delay = delay
        self.gain = gain
        self.phase = phase
    }
}
