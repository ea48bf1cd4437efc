/// The tuner's gain changing now and then (its AGC stepping, or a neighbouring strong
/// signal), which moves the noise floor and every reply together.
///
/// The gain holds for an exponentially distributed time (mean `meanIntervalS`), then steps
/// to a level drawn uniformly within ±`rangeDb` of the nominal gain. It scales signal and
/// noise alike, so a reply's SNR does not change, but the demodulator's floor estimate has
/// to follow.
package struct GainSteps: ChannelStage {
    /// The gain stays within ±this many dB of nominal.
    package let rangeDb: Double
    /// Mean time between steps, seconds.
    package let meanIntervalS: Double
    private let sampleRate: Double
    private var gain = 1.0
    private var nextStep: Int
    private var generator: SeededGenerator

    /// Steps within ±`rangeDb` every `meanIntervalS` on average at `sampleRate`, drawn from
    /// `generator`.
    package init(rangeDb: Double, meanIntervalS: Double, sampleRate: Double, generator: SeededGenerator) {
        self.rangeDb = rangeDb
        self.meanIntervalS = max(meanIntervalS, 1e-3)
        self.sampleRate = sampleRate
        self.generator = generator
        nextStep = 0
        nextStep = drawInterval()
    }

    private mutating func drawInterval() -> Int {
        let seconds = -DeterministicMath.ln(1 - generator.uniform()) * meanIntervalS
        return max(1, Int(seconds * sampleRate))
    }

    /// Scales `iq` in place by the gain in force at each sample.
    package mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        let count = iq.count / 2
        var index = 0
        while index < count {
            let sample = firstSample + index
            if sample >= nextStep {
                gain = DeterministicMath.powerRatio(decibels: generator.uniform(-rangeDb, rangeDb) / 2)
                nextStep = sample + drawInterval()
            }
            let end = min(count, nextStep - firstSample)
            for n in index..<end {
                iq[2 * n] *= gain
                iq[2 * n + 1] *= gain
            }
            index = end
        }
    }
}
