import Testing
@testable import ModeSDemod
import TestSupport

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
                var sum: Int64 = 0, squares: Int64 = 0, weights: Int64 = 0
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
}
