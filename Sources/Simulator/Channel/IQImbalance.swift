/// The mismatch between the I and Q branches of the dongle's converter: Q has a slightly
/// different gain and is not exactly 90° from I.
///
/// With gain mismatch g (Q/I amplitude ratio) and phase error φ, a received (I, Q) becomes
/// (I, g·(Q·cos φ + I·sin φ)): a tone then shows an image at the mirror frequency, which is
/// how an imbalance is measured. The magnitude of a reply then ripples with its carrier
/// phase by about the mismatch.
package struct IQImbalance: ChannelStage, Equatable {
    /// Q/I amplitude ratio, dB.
    package let gainDb: Double
    /// Phase error of the Q branch, degrees.
    package let phaseDeg: Double
    private let gain: Double, sinPhi: Double, cosPhi: Double

    /// An imbalance of `gainDb` and `phaseDeg`.
    package init(gainDb: Double, phaseDeg: Double) {
        self.gainDb = gainDb
        self.phaseDeg = phaseDeg
        gain = DeterministicMath.powerRatio(decibels: gainDb / 2)
        (sinPhi, cosPhi) = DeterministicMath.sinCos(DeterministicMath.radians(phaseDeg))
    }

    /// Applies the imbalance to `iq` in place.
    package mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        for index in stride(from: 0, to: iq.count - 1, by: 2) {
            iq[index + 1] = gain * (iq[index + 1] * cosPhi + iq[index] * sinPhi)
        }
    }
}
