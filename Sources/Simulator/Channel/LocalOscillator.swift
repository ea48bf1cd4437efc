/// The dongle's tuner oscillator: a fixed tuning error and phase noise, which together rotate
/// every reply's carrier.
///
/// An uncorrected RTL-SDR crystal is off by tens of ppm, tens of kHz at 1090 MHz, on top of
/// each transponder's own offset; its phase also wanders. The phase noise is a random walk
/// (the integral of white frequency noise) with `phaseNoise` radians rms per sample step.
/// Applied to the signal before the receiver noise is added (that noise is circular, so a
/// rotation would not change it).
package struct LocalOscillator: ChannelStage {
    /// Tuning error, Hz (the signal appears shifted by minus this).
    package let offsetHz: Double
    /// Standard deviation of the phase step between two samples, radians.
    package let phaseNoise: Double
    private let stepSin: Double, stepCos: Double
    private var phaseSin = 0.0, phaseCos = 1.0
    private var generator: SeededGenerator

    /// An oscillator off by `offsetHz` at `sampleRate`, wandering by `phaseNoise` rad per
    /// sample, its noise drawn from `generator`.
    package init(offsetHz: Double, phaseNoise: Double, sampleRate: Double, generator: SeededGenerator) {
        self.offsetHz = offsetHz
        self.phaseNoise = phaseNoise
        (stepSin, stepCos) = DeterministicMath.sinCos(-2 * DeterministicMath.pi * offsetHz / sampleRate)
        self.generator = generator
    }

    /// Rotates `iq` in place by the oscillator's phase, sample by sample.
    package mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        var s = phaseSin
        var c = phaseCos
        var g = generator
        for index in stride(from: 0, to: iq.count - 1, by: 2) {
            let i = iq[index]
            let q = iq[index + 1]
            iq[index] = i * c - q * s
            iq[index + 1] = i * s + q * c
            // Next phase: the fixed step and a small random one. For the tiny random angle d
            // the rotation is (1 − d²/2 + d⁴/24, d − d³/6), exact far below the quantisation.
            let d = phaseNoise > 0 ? phaseNoise * g.gaussian() : 0
            let d2 = d * d
            let ds = d - d * d2 / 6
            let dc = 1 - d2 / 2 + d2 * d2 / 24
            let rs = stepSin * dc + stepCos * ds
            let rc = stepCos * dc - stepSin * ds
            let nextC = c * rc - s * rs
            s = s * rc + c * rs
            c = nextC
        }
        // Keep the phasor on the unit circle despite rounding.
        let norm = 1 / (s * s + c * c).squareRoot()
        phaseSin = s * norm
        phaseCos = c * norm
        generator = g
    }
}
