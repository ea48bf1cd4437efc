import ModeS

/// The baseband envelope of a Mode S burst as a receiver's samples see it.
///
/// On air, each message is an 8 µs preamble (0.5 µs pulses starting at 0, 1, 3.5 and
/// 4.5 µs) followed by one bit per microsecond, a 1 being a pulse in the first half of its
/// microsecond and a 0 a pulse in the second half. A transponder's pulses are not ideal
/// rectangles: their edges rise and fall in 0.05–0.1 µs, modelled here as a raised-cosine
/// edge of `riseTimeUs`. The receiver (the RTL2832U's decimating filter) then averages the
/// signal over roughly one sample period before each sample is taken; a boxcar window of
/// one sample period models that, which gives the intermediate sample values at pulse
/// edges that real recordings show and makes the result depend on where the bit boundaries
/// fall between samples.
///
/// Both steps are linear and closed-form: the envelope is a sum over half-microsecond
/// "chips" (on or off) of the window-averaged edge response, so no filtering state is kept
/// and any sample of any burst can be computed on its own.
package struct PulseShaper: Sendable {
    /// Sample rate, samples per second.
    package let sampleRate: Double
    /// Width of a pulse edge (raised cosine, 0 to 100 %), microseconds.
    package let riseTimeUs: Double
    /// The averaging window (one sample period), microseconds.
    package let windowUs: Double

    /// A shaper for `sampleRate` with edges of `riseTimeUs`.
    package init(sampleRate: Double, riseTimeUs: Double = 0.1) {
        self.sampleRate = sampleRate
        self.riseTimeUs = riseTimeUs
        self.windowUs = 1e6 / sampleRate
    }

    /// The preamble's pulses, in half-microsecond chips: 0, 1, 3.5 and 4.5 µs.
    private static let preambleChips: UInt32 = 1 << 0 | 1 << 2 | 1 << 7 | 1 << 9

    /// Whether half-microsecond chip `chip` of the burst carries a pulse.
    @inline(__always)
    package static func chipIsOn(_ bits: ModeSBits, _ chip: Int) -> Bool {
        if chip < 16 { return (preambleChips >> UInt32(chip)) & 1 == 1 }
        let offset = chip - 16
        let bit = bits.bit(offset / 2 + 1) == 1
        return offset % 2 == 0 ? bit : !bit
    }

    /// The integral from −∞ to x of a unit raised-cosine step centred on 0.
    @inline(__always)
    private func integratedStep(_ x: Double) -> Double {
        let half = riseTimeUs / 2
        if x <= -half { return 0 }
        if x >= half { return x }
        // ∫ ½(1 + sin(πu/τ)) du = ½(u + τ/2) − (τ/2π)·cos(πu/τ) on |u| ≤ τ/2.
        return 0.5 * (x + half) - riseTimeUs / (2 * DeterministicMath.pi)
            * DeterministicMath.cos(DeterministicMath.pi * x / riseTimeUs)
    }

    /// A unit step at 0 seen through the edge shape and the sampling window, at time x (µs).
    @inline(__always)
    private func windowedStep(_ x: Double) -> Double {
        let half = windowUs / 2
        if x + half <= -riseTimeUs / 2 { return 0 }
        if x - half >= riseTimeUs / 2 { return 1 }
        return (integratedStep(x + half) - integratedStep(x - half)) / windowUs
    }

    /// The envelope (0...1) of the burst carrying `bits` at `t` µs after the leading edge of
    /// its first preamble pulse.
    @inline(__always)
    package func envelope(_ bits: ModeSBits, at t: Double) -> Double {
        let totalChips = 16 + 2 * bits.bitCount
        let reach = windowUs / 2 + riseTimeUs / 2
        let firstChip = max(0, Int(((t - reach) * 2).rounded(.down)) - 1)
        let lastChip = min(totalChips - 1, Int(((t + reach) * 2).rounded(.down)))
        guard firstChip <= lastChip else { return 0 }
        var value = 0.0
        for chip in firstChip...lastChip where Self.chipIsOn(bits, chip) {
            let start = Double(chip) * 0.5
            value += windowedStep(t - start) - windowedStep(t - start - 0.5)
        }
        return value
    }

    /// One pulse of `widthUs` starting at 0, seen through the edge shape and the sampling
    /// window, at `t` µs (Mode A/C pulses, which do not sit on the half-microsecond grid).
    @inline(__always)
    package func pulse(at t: Double, widthUs: Double) -> Double {
        windowedStep(t) - windowedStep(t - widthUs)
    }

    /// First and last sample index (inclusive) a burst starting at `start` seconds touches.
    package func sampleSpan(start: Double, duration: Double) -> (first: Int, last: Int) {
        let margin = (windowUs + riseTimeUs) * 1e-6
        let first = Int(((start - margin) * sampleRate).rounded(.down))
        let last = Int(((start + duration + margin) * sampleRate).rounded(.up))
        return (max(0, first), last)
    }

    /// Mean of envelope² over the samples that fall within the burst's nominal duration
    /// (from the first preamble edge to the end of the last bit): what DESIGN's SNR
    /// definition divides by the noise power.
    package func meanPower(_ bits: ModeSBits, start: Double) -> Double {
        let duration = (8 + Double(bits.bitCount)) * 1e-6
        let first = Int((start * sampleRate).rounded(.up))
        let last = Int(((start + duration) * sampleRate).rounded(.down))
        guard last >= first else { return 0 }
        var sum = 0.0
        for n in first...last {
            let e = envelope(bits, at: (Double(n) / sampleRate - start) * 1e6)
            sum += e * e
        }
        return sum / Double(last - first + 1)
    }
}
