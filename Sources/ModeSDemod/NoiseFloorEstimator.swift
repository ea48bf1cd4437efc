import ModeS

/// A running estimate of the receiver's noise floor: the mean magnitude of the samples that
/// carry no reply.
///
/// Thresholds throughout the demodulator are multiples of this floor, so they follow the
/// dongle's gain and the local noise instead of being fixed numbers.
///
/// The stream is cut into windows of `windowLength` samples at fixed absolute positions;
/// one floor is computed per window, so the result never depends on how the input was
/// split into blocks. To stay cheap, only every `stride`-th sample is looked at. To stay
/// robust in busy traffic, samples above `trimFactor` times the previous window's floor
/// are left out: they are reply pulses, not noise. For pure complex Gaussian noise the
/// magnitude is Rayleigh distributed and only exp(-pi/4 * 3^2) ≈ 0.08 % of samples exceed 3
/// times its mean, so trimming there removes almost no noise but most strong pulses.
package struct NoiseFloorEstimator: Sendable {
    /// Samples per window (a power of two): 4096 samples is 1.7 ms at 2.4 MS/s, short
    /// enough to follow gain changes, long enough for a steady mean.
    package static let windowLength = 4096
    /// Only samples whose absolute index is a multiple of this are measured.
    static let stride = 16
    /// Samples louder than this many floors are treated as signal, not noise.
    static let trimFactor: UInt64 = 3
    /// Floors are remembered for this many windows (a power of two); the demodulator never
    /// looks further back than its buffer, which is much shorter.
    static let ringLength = 64
    /// The smallest floor reported, so that silence (all-zero input) gives sane thresholds.
    static let minimumFloor: UInt32 = 16

    private var floors = [UInt32](repeating: 0, count: ringLength)
    /// Absolute index of the next sample to be absorbed.
    package private(set) var absorbedCount: Int = 0
    private var sum: UInt64 = 0
    private var kept: UInt64 = 0
    private var previousFloor: UInt32?

    /// An estimator that has seen nothing yet.
    package init() {}

    /// The number of windows whose floor is known.
    package var completedWindows: Int { absorbedCount / Self.windowLength }

    /// Feeds the next `count` magnitudes of the stream (absolute indices
    /// `absorbedCount ..< absorbedCount + count`).
    package mutating func absorb(_ magnitudes: UnsafePointer<UInt16>, count: Int) {
        var index = 0
        while index < count {
            let absolute = absorbedCount + index
            let windowEnd = (absolute / Self.windowLength + 1) * Self.windowLength
            let end = min(count, index + (windowEnd - absolute))
            // First sample in [index, end) whose absolute index is a multiple of `stride`.
            var position = index + (Self.stride - absolute % Self.stride) % Self.stride
            let cap = previousFloor.map { UInt64($0) * Self.trimFactor } ?? UInt64.max
            var windowSum: UInt64 = 0
            var windowKept: UInt64 = 0
            while position < end {
                let value = UInt64(magnitudes[position])
                if value <= cap {
                    windowSum += value
                    windowKept += 1
                }
                position += Self.stride
            }
            sum += windowSum
            kept += windowKept
            index = end
            if (absorbedCount + end) % Self.windowLength == 0 {
                closeWindow(index: (absorbedCount + end) / Self.windowLength - 1)
            }
        }
        absorbedCount += count
    }

    /// Closes the last, partial window at the end of a stream so its samples get a floor.
    package mutating func finish() {
        guard absorbedCount % Self.windowLength != 0 else { return }
        closeWindow(index: absorbedCount / Self.windowLength)
        absorbedCount = (absorbedCount / Self.windowLength + 1) * Self.windowLength
    }

    /// Starts measuring again at absolute sample `index`, after a gap in the stream. The
    /// last floor is kept as the trimming reference: the receiver's gain did not change.
    package mutating func restart(at index: Int) {
        absorbedCount = index
        sum = 0
        kept = 0
    }

    /// The noise floor (mean noise magnitude) around absolute sample `index`; only valid
    /// once the window holding `index` is complete.
    @inline(__always)
    package func floor(at index: Int) -> UInt32 {
        floors[(index / Self.windowLength) & (Self.ringLength - 1)]
    }

    private mutating func closeWindow(index: Int) {
        var floor: UInt32
        if kept > 0 {
            floor = UInt32(sum / kept)
        } else {
            // Every sample was "signal": the floor rose sharply (gain change); start over
            // from the untrimmed picture next time by keeping the cap-defining floor high.
            floor = (previousFloor ?? 0) * UInt32(Self.trimFactor)
        }
        floor = max(floor, Self.minimumFloor)
        floors[index & (Self.ringLength - 1)] = floor
        previousFloor = floor
        sum = 0
        kept = 0
    }
}
