import ModeS

/// The linear model of one reply's channel in the complex baseband, and its least-squares
/// fit: with the carrier removed, each sample is a constant plus six complex taps times the
/// reply's rectangular-chip envelope around it,
///
///     iq[j] ≈ c + Σ g[k] · envelope[j − k],   k = −1 … 4
///
/// One tap before the sample covers a filter's group delay and a start a fraction early;
/// four after cover a filter's ringing and echoes up to about 2 µs at 2.0 MS/s. A receiver's
/// band limit, its ringing and an echo (a delayed, rotated copy) are all linear filters on
/// the envelope, so this one model describes a reply as the receiver really got it, and
/// `ChannelFitSlicer` decides bits against it. (Subtracting it instead of a rectangular copy
/// when cancelling an overlapping reply recovered a few more replies in busy skies, and a few
/// false ones with them: not done.)
///
/// A class only to own its scratch memory.
final class ChannelTaps {
    /// Taps before the sample itself (envelope ahead of it).
    static let precursors = 1
    /// Taps after it (envelope behind it).
    static let postcursors = 4
    /// All taps.
    static let taps = precursors + 1 + postcursors
    /// Real regressors: the taps and the constant.
    static let parameters = taps + 1

    /// A fitted model: `taps` complex weights (precursor first), then the complex constant,
    /// as the lanes of two vectors (real and imaginary parts; the last lane is unused).
    struct Model {
        var real: SIMD8<Float>
        var imaginary: SIMD8<Float>

        /// The model without the constant: only what the reply itself adds.
        var withoutConstant: Model {
            var reply = self
            reply.real[ChannelTaps.taps] = 0
            reply.imaginary[ChannelTaps.taps] = 0
            return reply
        }

        /// The prediction for regressors `x` (see `ChannelTaps.regressors`).
        @inline(__always)
        func predict(_ x: SIMD8<Float>) -> (Float, Float) {
            ((real * x).pairwiseSum, (imaginary * x).pairwiseSum)
        }
    }

    /// Scratch: Σ x·xᵀ of the clipped samples row by row (see `fit`), then the normal
    /// equations with two right-hand sides (the real and imaginary parts) in doubles.
    private let accumulators: UnsafeMutablePointer<SIMD8<Float>>
    private let equations: UnsafeMutablePointer<Double>
    /// Scratch: the envelope back to front (see `fit`), and its capacity.
    private var reversed: UnsafeMutablePointer<Float>
    private var reversedCapacity = 0

    init() {
        reversed = .allocate(capacity: 0)
        accumulators = .allocate(capacity: Self.parameters)
        accumulators.initialize(repeating: SIMD8<Float>(repeating: 0), count: Self.parameters)
        equations = .allocate(capacity: Self.parameters * (Self.parameters + 2))
        equations.initialize(repeating: 0, count: Self.parameters * (Self.parameters + 2))
    }

    deinit {
        reversed.deallocate()
        accumulators.deallocate()
        equations.deallocate()
    }

    /// The regressors of sample `j`: envelope[j + precursors] down to envelope[j −
    /// postcursors], then 1 for the constant. `envelope` must be readable `postcursors`
    /// before and `precursors` after `j`.
    @inline(__always)
    static func regressors(_ envelope: UnsafePointer<Float>, at j: Int) -> SIMD8<Float> {
        var x = SIMD8<Float>(repeating: 0)
        for tap in 0..<taps { x[tap] = envelope[j + precursors - tap] }
        x[taps] = 1
        return x
    }

    /// Complex least squares of the derotated `samples` (I, Q interleaved) on the
    /// regressors of `envelope`, over samples 0 ..< `span` that are not `clipped`; nil
    /// when the system is singular (an envelope without variation).
    func fit(
        envelope: UnsafePointer<Float>, samples: UnsafePointer<Float>, clipped: UnsafePointer<Bool>,
        span: Int
    ) -> Model? {
        let sums = accumulate(envelope: envelope, samples: samples, clipped: clipped, span: span)
        setEquations(sums, envelope: envelope, span: span)
        return solve()
    }

    /// What `accumulate` sums over the span, in registers: see there.
    struct Sums {
        /// Σ x·x₀, the first tap's row of Σ x·xᵀ over every sample.
        var firstRow = SIMD8<Float>()
        /// Σ x, the constant's row over every sample.
        var constantRow = SIMD8<Float>()
        /// Σ x·I and Σ x·Q over the unclipped samples: the two right-hand sides.
        var real = SIMD8<Float>()
        var imaginary = SIMD8<Float>()
    }

    /// The sums of the normal equations over samples 0 ..< `span`, in one pass. Floats hold
    /// sums of a few hundred terms of order one well enough for a fit whose result only has
    /// to rank bit flips.
    ///
    /// Σ x·xᵀ is not summed row by row: every tap's regressor is the same envelope, one
    /// sample later per tap, so over every sample of the span the row of tap t is the first
    /// tap's row moved t samples on, but for the few products at the span's two ends (which
    /// `setEquations` adds and takes off). Only the first tap's row and the constant's (Σ x)
    /// are summed, in registers; the clipped samples, which take no part, are summed with the
    /// rest and their own products (`accumulators`, row by row) taken out again after. This is
    /// a third of the vector work of summing each row, for the same sums up to rounding.
    @inline(__always)
    private func accumulate(
        envelope: UnsafePointer<Float>, samples: UnsafePointer<Float>, clipped: UnsafePointer<Bool>,
        span: Int
    ) -> Sums {
        let n = Self.parameters
        // The envelope back to front, from envelope[span − 1 + precursors] down to
        // envelope[−postcursors], then zeros: sample j's regressors are then the eight
        // floats from backwards[span − 1 − j] with the last two lanes set to the constant's
        // 1 and 0, the values `regressors` gathers one by one, in one load.
        let count = span + Self.taps - 1
        if reversedCapacity < count + 8 {
            reversed.deallocate()
            reversedCapacity = count + 8
            reversed = .allocate(capacity: reversedCapacity)
        }
        let backwards = reversed
        for index in 0..<count { backwards[index] = envelope[span - 1 + Self.precursors - index] }
        (backwards + count).initialize(repeating: 0, count: 8)
        let constant = SIMD8<Float>(0, 0, 0, 0, 0, 0, 1, 0)
        let tapLanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8(repeating: Int32(Self.taps))
        @inline(__always) func regressors(_ j: Int) -> SIMD8<Float> {
            constant.replacing(
                with: UnsafeRawPointer(backwards + (span - 1 - j)).loadUnaligned(as: SIMD8<Float>.self),
                where: tapLanes)
        }
        let clippedSums = accumulators
        clippedSums.update(repeating: SIMD8<Float>(repeating: 0), count: n)
        var sums = Sums()
        for j in 0..<span {
            let x = regressors(j)
            sums.firstRow += x * x[0]
            sums.constantRow += x
            if clipped[j] {
                for row in 0..<n { clippedSums[row] += x * x[row] }
                continue
            }
            sums.real += x * samples[2 * j]
            sums.imaginary += x * samples[2 * j + 1]
        }
        return sums
    }

    /// Writes the normal equations, with their two right-hand sides, to `equations` (in
    /// doubles) from `sums`: each tap's row from the first tap's, corrected at the span's
    /// ends, less the clipped samples' products.
    @inline(__always)
    private func setEquations(_ sums: Sums, envelope: UnsafePointer<Float>, span: Int) {
        let n = Self.parameters
        let width = n + 2
        let clippedSums = accumulators
        let a = equations
        // Tap t's regressor at sample j is envelope[j + precursors − t]: tap 0's at j − t.
        @inline(__always) func product(_ j: Int, lag: Int) -> Double {
            Double(envelope[j + Self.precursors]) * Double(envelope[j + Self.precursors - lag])
        }
        let last = n - 1
        for row in 0..<Self.taps {
            for column in row..<Self.taps {
                let lag = column - row
                // Tap `row` over samples 0 ..< span is tap 0 over −row ..< span − row.
                var value = Double(sums.firstRow[lag])
                for j in -row..<0 { value += product(j, lag: lag) }
                for j in (span - row)..<span { value -= product(j, lag: lag) }
                a[row * width + column] = value - Double(clippedSums[row][column])
                a[column * width + row] = a[row * width + column]
            }
            a[row * width + last] = Double(sums.constantRow[row]) - Double(clippedSums[row][last])
            a[last * width + row] = a[row * width + last]
        }
        a[last * width + last] = Double(span) - Double(clippedSums[last][last])
        for row in 0..<n {
            a[row * width + n] = Double(sums.real[row])
            a[row * width + n + 1] = Double(sums.imaginary[row])
        }
    }

    /// Solves the normal equations in `equations` for the model: a light ridge, then
    /// Gaussian elimination with partial pivoting and back substitution; nil when singular.
    @inline(__always)
    private func solve() -> Model? {
        let n = Self.parameters
        let width = n + 2
        let a = equations
        // A light ridge keeps taps the samples barely tell apart from running away.
        var trace = 0.0
        for row in 0..<n { trace += a[row * width + row] }
        guard trace > 0 else { return nil }
        for row in 0..<n { a[row * width + row] += 1e-6 * trace }
        for column in 0..<n {
            var pivot = column
            for row in (column + 1)..<n where abs(a[row * width + column]) > abs(a[pivot * width + column]) {
                pivot = row
            }
            guard abs(a[pivot * width + column]) > 1e-9 * trace else { return nil }
            if pivot != column {
                for k in 0..<width { swap(&a[pivot * width + k], &a[column * width + k]) }
            }
            let diagonal = a[column * width + column]
            for row in (column + 1)..<n {
                let factor = a[row * width + column] / diagonal
                if factor == 0 { continue }
                for k in column..<width { a[row * width + k] -= factor * a[column * width + k] }
            }
        }
        var model = Model(real: .init(repeating: 0), imaginary: .init(repeating: 0))
        for row in stride(from: n - 1, through: 0, by: -1) {
            var re = a[row * width + n]
            var im = a[row * width + n + 1]
            for k in (row + 1)..<n {
                re -= a[row * width + k] * Double(model.real[k])
                im -= a[row * width + k] * Double(model.imaginary[k])
            }
            model.real[row] = Float(re / a[row * width + row])
            model.imaginary[row] = Float(im / a[row * width + row])
        }
        return model
    }
}
