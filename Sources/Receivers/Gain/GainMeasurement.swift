/// What the samples said about the gain over one interval (about a second of samples): the
/// input of `GainController`.
package struct GainMeasurement: Sendable, Equatable {
    /// The noise floor, dB relative to full scale (`SamplePower`'s estimate: the mean power of
    /// the noise alone, replies left out).
    package var noiseDBFS: Double
    /// The share of the measured samples with I or Q at the converter's rails (a cu8 code of 0
    /// or 255): strong replies cut flat.
    package var clippedShare: Double
    /// Samples measured (every `SamplePower.stride`th sample of the interval).
    package var samples: Int

    /// A measurement of `samples` samples.
    package init(noiseDBFS: Double, clippedShare: Double, samples: Int) {
        self.noiseDBFS = noiseDBFS
        self.clippedShare = clippedShare
        self.samples = samples
    }
}
