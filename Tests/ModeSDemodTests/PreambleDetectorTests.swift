import IQ
import TestSupport
import Testing

@testable import ModeSDemod

/// The pulse level measurements against their definitions over the kernel weights.
@Suite(.computeBound) struct PreambleDetectorTests {
    /// `pulseAmplitude` (Σ overlap·m / Σ overlap², in tenths) and `pulseMean`
    /// (Σ overlap·m / Σ overlap) equal their definitions computed in integers, at every
    /// phase of both rates, for random magnitudes up to full scale: the float sums they
    /// are computed with must be exact.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func pulseLevelsMatchTheirDefinitions(rate: SampleRate) {
        let kernels = ReplyKernels(sampleRate: rate)
        let detector = PreambleDetector(kernels: kernels)
        var generator = SystemRandomNumberGenerator()
        let span = kernels.preambleSpan
        var samples = [UInt16](repeating: 0, count: PreambleDetector.samplesRead)
        for trial in 0..<200 {
            // Full scale everywhere on the first trial, the largest sums there are.
            for index in samples.indices {
                samples[index] = trial == 0 ? .max : UInt16.random(in: 0...UInt16.max, using: &generator)
            }
            for phase in 0..<kernels.phaseOffsets.count {
                var sum: Int64 = 0
                var squares: Int64 = 0
                var weights: Int64 = 0
                for sample in 0..<span {
                    let weight = Int64(kernels.pulseWeights[phase * span + sample])
                    sum += weight * Int64(samples[sample])
                    squares += weight * weight
                    weights += weight
                }
                samples.withUnsafeBufferPointer { buffer in
                    let start = buffer.baseAddress!
                    #expect(detector.pulseAmplitude(at: start, phase: phase) == 10 * Double(sum) / Double(squares))
                    #expect(detector.pulseMean(at: start, phase: phase) == Double(sum) / Double(weights))
                }
            }
        }
    }

    /// `phases` (every phase scored at once, a lane each) keeps exactly the phases that pass
    /// both tests as they are defined phase by phase over the kernel weights, in the same
    /// order (best score first, the earlier phase first on a tie), at both rates, with and
    /// without the quiet test: on noise, on preambles at a random phase and strength, and on
    /// preambles whose quiet chips another signal fills.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func phasesMatchTheirDefinition(rate: SampleRate) {
        let kernels = ReplyKernels(sampleRate: rate)
        var generator = SystemRandomNumberGenerator()
        let span = kernels.preambleSpan
        var samples = [UInt16](repeating: 0, count: PreambleDetector.samplesRead)
        var kept = 0
        for quietLimit in [Int32(8), 16] {
            var detector = PreambleDetector(kernels: kernels)
            detector.maximumQuietToPulseSixteenths = quietLimit
            for trial in 0..<3000 {
                let floor = UInt32.random(in: 200...4000, using: &generator)
                let shape = kernels.phaseOffsets.indices.randomElement(using: &generator)!
                let amplitude = trial % 3 == 0 ? 0 : Int.random(in: 0...(12 * Int(floor)), using: &generator)
                let filler = trial % 3 == 2 ? Int.random(in: 0...(3 * Int(floor)), using: &generator) : 0
                for sample in 0..<samples.count {
                    // Overlaps are in tenths of a sample.
                    let pulse = sample < span ? Int(kernels.pulseWeights[shape * span + sample]) * amplitude / 10 : 0
                    let noise = Int.random(in: 0...(2 * Int(floor)), using: &generator)
                    samples[sample] = UInt16(clamping: pulse + noise + (pulse == 0 ? filler : 0))
                }
                let expected = Self.phasesByDefinition(samples, floor: floor, kernels: kernels, detector: detector)
                let phases = samples.withUnsafeBufferPointer { detector.phases(at: $0.baseAddress!, floor: floor) }
                #expect(phases.count == expected.count)
                for rank in 0..<min(phases.count, expected.count) {
                    #expect(phases.index(rank) == expected[rank].phase)
                    #expect(phases.score(rank) == expected[rank].score)
                }
                kept += expected.count
            }
        }
        // The trials must exercise both outcomes.
        #expect(kept > 1000)
        #expect(kept < 2 * 3000 * kernels.phaseOffsets.count - 1000)
    }

    /// The phases `detector` should keep for `samples`, each phase on its own: its score
    /// Σ preambleWeights·m above the threshold, and its quiet chips' mean above the floor at
    /// most `maximumQuietToPulseSixteenths`/16 of its pulses' (the sums are whole numbers,
    /// exact in floats, compared as the detector compares them); best first, the earlier
    /// phase first on a tie.
    static func phasesByDefinition(
        _ samples: [UInt16], floor: UInt32, kernels: ReplyKernels,
        detector: PreambleDetector
    ) -> [(phase: Int, score: Int32)] {
        let span = kernels.preambleSpan
        let threshold =
            (Int64(floor) * Int64(detector.minimumPulseToFloorSixteenths) * Int64(kernels.preambleScale)) >> 4
        let quiet = Float(detector.maximumQuietToPulseSixteenths)
        let chip = Float(kernels.sampleRate.tenthsPerChip)
        var kept: [(phase: Int, score: Int32)] = []
        for phase in kernels.phaseOffsets.indices {
            var total: Int64 = 0
            var on: Int64 = 0
            for sample in 0..<span {
                total += Int64(kernels.preambleWeights[phase * span + sample]) * Int64(samples[sample])
                on += Int64(kernels.pulseWeights[phase * span + sample]) * Int64(samples[sample])
            }
            guard total > threshold else { continue }
            if quiet < 16 {
                let off = Float(3 * on - total)
                guard 16 * off - (16 - quiet) * 12 * chip * Float(floor) <= 3 * quiet * Float(on) else { continue }
            }
            kept.append((phase, Int32(total)))
        }
        return kept.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(
            \.element)
    }
}
