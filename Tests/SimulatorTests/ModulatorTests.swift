import ModeS
import Testing

@testable import Simulator

/// The modulator's signal: pulse positions, SNR as defined, noise level, determinism.
@Suite struct ModulatorTests {
    static let message = ModeSBits(hex: "8D406B902015A678D4D220AA4BDA")!

    /// Renders `transmissions` over `samples` samples: with noise, and the same noise alone.
    static func renderWithAndWithout(
        _ transmissions: [Transmission], modulator: Modulator,
        samples: Int
    ) -> (signal: [Double], noise: [Double]) {
        var a = SeededGenerator(seed: 9)
        var b = SeededGenerator(seed: 9)
        var signal: [Double] = []
        var noise: [Double] = []
        modulator.render(transmissions, totalSamples: samples, noise: &a, blockSize: 1000) { signal += $0 }
        modulator.render([], totalSamples: samples, noise: &b, blockSize: 1000) { noise += $0 }
        return (signal, noise)
    }

    @Test(arguments: [2_000_000.0, 2_400_000.0])
    func measuredSNRMatchesRequested(sampleRate: Double) {
        let modulator = Modulator(sampleRate: sampleRate)
        for (index, snr) in [4.0, 10.0, 20.0].enumerated() {
            let start = 100e-6 + Double(index) * 0.37e-6  // a different sub-sample phase each time
            let burst = Transmission(
                time: start, aircraft: 0, bits: Self.message, snrDb: snr,
                frequencyOffsetHz: 30_000, phase: 1.0)
            let (signal, noise) = Self.renderWithAndWithout([burst], modulator: modulator, samples: 1000)
            // The noise-free burst is the difference; its mean power over the burst's duration
            // divided by the noise power is the SNR.
            let first = Int((start * sampleRate).rounded(.up))
            let last = Int(((start + 120e-6) * sampleRate).rounded(.down))
            var power = 0.0
            for n in first...last {
                let i = signal[2 * n] - noise[2 * n]
                let q = signal[2 * n + 1] - noise[2 * n + 1]
                power += i * i + q * q
            }
            power /= Double(last - first + 1)
            let measured = 10 * DeterministicMath.log10(power / modulator.noisePower)
            #expect(abs(measured - snr) < 0.01, "rate \(sampleRate) snr \(snr) measured \(measured)")
            // Nothing outside the burst (plus the edge margin) differs from the noise.
            let outside = (0..<first - 2).allSatisfy { signal[2 * $0] == noise[2 * $0] }
            #expect(outside)
        }
    }

    @Test func noiseHasFourLSBPerComponent() {
        let modulator = Modulator(sampleRate: 2_400_000)
        var g = SeededGenerator(seed: 1)
        var sum = 0.0
        var squares = 0.0
        var count = 0
        modulator.render([], totalSamples: 200_000, noise: &g) { block in
            for value in block {
                sum += value
                squares += value * value
                count += 1
            }
        }
        let rms = (squares / Double(count)).squareRoot()
        #expect(abs(rms - 4) < 0.05)
        #expect(abs(sum / Double(count)) < 0.05)
    }

    @Test(arguments: [2_000_000.0, 2_400_000.0])
    func envelopeFollowsPulsePositions(sampleRate: Double) {
        let shaper = PulseShaper(sampleRate: sampleRate)
        let bits = Self.message
        // In the middle of every on chip the envelope is full, in the middle of an off chip it
        // is empty, once the window and edges are clear of the chip boundaries.
        let wide = PulseShaper(sampleRate: 100_000_000)  // a near-point sampler
        for chip in 0..<(16 + 2 * bits.bitCount) {
            let centre = Double(chip) * 0.5 + 0.25
            let expected = PulseShaper.chipIsOn(bits, chip) ? 1.0 : 0.0
            #expect(abs(wide.envelope(bits, at: centre) - expected) < 1e-9, "chip \(chip)")
        }
        // Preamble: pulses at 0, 1, 3.5 and 4.5 µs; nothing at 2 µs or 6 µs.
        for t in [0.25, 1.25, 3.75, 4.75] { #expect(wide.envelope(bits, at: t) == 1) }
        for t in [0.75, 2.0, 3.0, 6.0, 7.5] { #expect(wide.envelope(bits, at: t) == 0) }
        // The receiver's window makes edges gradual: halfway between on and off at an edge.
        #expect(abs(shaper.envelope(bits, at: 0.5) - 0.5) < 1e-9)
        // Finite rise time: a point sampler sees intermediate values within 0.05 µs of an edge.
        let edge = wide.envelope(bits, at: 0.52)
        #expect(edge > 0 && edge < 1)
    }

    @Test func bitOneIsAPulseInTheFirstHalf() {
        let point = PulseShaper(sampleRate: 100_000_000)
        let bits = Self.message  // first bit is 1 (DF17 = 10001)
        #expect(point.envelope(bits, at: 8.25) == 1)
        #expect(point.envelope(bits, at: 8.75) == 0)
        // Second bit is 0: pulse in the second half.
        #expect(point.envelope(bits, at: 9.25) == 0)
        #expect(point.envelope(bits, at: 9.75) == 1)
    }
}
