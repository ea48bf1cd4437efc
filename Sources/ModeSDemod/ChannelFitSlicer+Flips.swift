import ModeS

/// The bit flips against the fitted model: a template per class of bit of what a flip does
/// to the prediction, the trial of one flip (or of two neighbouring bits) against the
/// residual, and the bookkeeping that runs again only the trials a flip made stale.
extension ChannelFitSlicer {
    /// Samples a bit's two chips touch, from the first sample of its first chip.
    static let flipSamples = 6

    /// Samples whose prediction a flip moves: the taps' reach on either side.
    static let flipReach = flipSamples + taps

    /// For each class of bit (its index modulo `classes`), what flipping it from 1 to 0
    /// does: the change of the envelope over `flipSamples` samples (first chip off, second
    /// on) and of the model's prediction over `flipReach` samples from `precursors` before
    /// (complex, interleaved). A flip from 0 to 1 is the negative. Computed once per fit,
    /// so a trial is a short sum against the residual.
    func buildTemplates(_ context: Context) {
        for bit in 0..<classes {
            let chip = ReplyKernels.preambleChips + 2 * bit
            let start = context.start(bit)
            let envelopeChange = flipEnvelope + bit * Self.flipSamples
            envelopeChange.update(repeating: 0, count: Self.flipSamples)
            // The first chip goes off, the second on.
            for second in 0..<2 {
                let index = chip + second
                let sign: Float = second == 0 ? -1 : 1
                let offset = Int(firstSample[context.chipBase + index]) - start
                let share = shares[context.chipBase + index]
                for lane in 0..<3 where offset + lane < Self.flipSamples {
                    envelopeChange[offset + lane] += sign * share[lane]
                }
            }
            let prediction = flipPrediction + 2 * bit * Self.flipReach
            for q in 0..<Self.flipReach {
                // Sample start − precursors + q sees the envelope change at
                // q − tap (relative to start), through tap `tap`.
                var re: Float = 0
                var im: Float = 0
                for tap in 0..<Self.taps {
                    let m = q - tap
                    guard m >= 0, m < Self.flipSamples else { continue }
                    re += context.model.real[tap] * envelopeChange[m]
                    im += context.model.imaginary[tap] * envelopeChange[m]
                }
                prediction[2 * q] = re
                prediction[2 * q + 1] = im
            }
        }
    }

    /// The sign of bit `bit`'s flip template: + for a flip from 1 to 0.
    @inline(__always)
    func sign(_ bit: Int) -> Float {
        chipOn[ReplyKernels.preambleChips + 2 * bit] != 0 ? 1 : -1
    }

    /// The change of the prediction at sample `j` if bits `bit` ..< `bit + count` flip.
    @inline(__always)
    func predictionChange(at j: Int, _ flips: Flips) -> (Float, Float) {
        var re: Float = 0
        var im: Float = 0
        for index in 0..<flips.count {
            let q = j - flips.starts[index] + Self.precursors
            guard q >= 0, q < Self.flipReach else { continue }
            let template = (index == 0 ? flips.templates.0 : flips.templates.1) + 2 * q
            re += flips.signs[index] * template[0]
            im += flips.signs[index] * template[1]
        }
        return (re, im)
    }

    /// One or two neighbouring bits under trial: where each one's template starts, which
    /// template, and its sign; looked up once per trial rather than per sample.
    struct Flips {
        var count: Int
        var starts: SIMD2<Int>
        var templates: (UnsafePointer<Float>, UnsafePointer<Float>)
        var signs: SIMD2<Float>
    }

    @inline(__always)
    func flips(_ bit: Int, count: Int, _ context: Context) -> Flips {
        let second = bit + count - 1
        return Flips(
            count: count, starts: SIMD2(context.start(bit), context.start(second)),
            templates: (
                UnsafePointer(flipPrediction + 2 * Int(templateClass[bit]) * Self.flipReach),
                UnsafePointer(flipPrediction + 2 * Int(templateClass[second]) * Self.flipReach)
            ),
            signs: SIMD2(sign(bit), sign(second)))
    }

    /// The samples whose prediction flipping bits `bit` ..< `bit + count` moves.
    @inline(__always)
    func reach(_ bit: Int, count: Int, _ context: Context) -> Range<Int> {
        let low = max(0, context.start(bit) - Self.precursors)
        let high = min(context.span, context.start(bit + count - 1) - Self.precursors + Self.flipReach)
        return low..<max(low, high)
    }

    /// What flipping bits `bit` ..< `bit + count` would do: `gain`, the change of the
    /// squared error over the reply's unclipped samples (negative: the flip fits better),
    /// and `energy`, the squared size of the change of the prediction (what a flip of a
    /// correct bit costs without noise).
    func trial(_ bit: Int, count: Int, _ context: Context) -> (gain: Float, energy: Float) {
        if count == 1 { return singleTrial(bit, context) }
        var gain: Float = 0
        var energy: Float = 0
        let flips = flips(bit, count: count, context)
        for j in reach(bit, count: count, context) where !context.clipped[j] {
            let (pr, pi) = predictionChange(at: j, flips)
            let r = residual + 2 * (Self.padding + j)
            gain += pr * (pr - 2 * r[0]) + pi * (pi - 2 * r[1])
            energy += pr * pr + pi * pi
        }
        return (gain, energy)
    }

    /// `trial` of one bit, in vectors: its template's samples lie side by side in memory,
    /// as do the residual and the weights that leave out clipped samples and those beyond
    /// the reply.
    @inline(__always)
    func singleTrial(_ bit: Int, _ context: Context) -> (gain: Float, energy: Float) {
        let offset = 2 * (Self.padding + context.start(bit) - Self.precursors)
        let template = UnsafeRawPointer(flipPrediction + 2 * Int(templateClass[bit]) * Self.flipReach)
        let r = UnsafeRawPointer(residual + offset)
        let w = UnsafeRawPointer(weights + offset)
        let s = sign(bit)
        var gain = SIMD8<Float>(repeating: 0)
        var energy = SIMD8<Float>(repeating: 0)
        for chunk in 0..<(2 * Self.flipReach / 8) {
            let p = template.loadUnaligned(fromByteOffset: 32 * chunk, as: SIMD8<Float>.self)
            let e = r.loadUnaligned(fromByteOffset: 32 * chunk, as: SIMD8<Float>.self)
            let weighted = p * w.loadUnaligned(fromByteOffset: 32 * chunk, as: SIMD8<Float>.self)
            gain += weighted * (p - 2 * s * e)
            energy += weighted * p
        }
        return (gain.pairwiseSum, energy.pairwiseSum)
    }

    /// Whether the trial of bits `bit` ..< `bit + count` has to run, marking it as run.
    ///
    /// A trial depends only on the templates, which stay fixed through a round, and on
    /// the residual over the samples it reads (the residual holds the bits' own decisions
    /// too). A trial that did not flip, run again over an unchanged residual, gives the same
    /// sums and again does not flip: so within a round only the trials that a flip has made
    /// stale since they last ran (`markStale`) run again, and the outcome is the one running
    /// them all would give.
    @inline(__always)
    func takeStale(_ bit: Int, count: Int) -> Bool {
        let entry = stale + (count - 1) * ReplyKernels.maximumBits + bit
        let result = entry.pointee
        entry.pointee = false
        return result
    }

    /// Marks as stale every trial (of one bit or, at 2.0 MS/s, of two) whose samples meet
    /// `changed`, the samples whose residual the flip of bits `first` ..< `first + count`
    /// changed. Trials read from `precursors` before their first bit's start to `flipReach`
    /// samples on from there for their last bit; starts grow with the bit, so the trials
    /// that meet `changed` are a run of bits around the flipped ones, found by walking out
    /// from them until a trial lies wholly before or after it.
    func markStale(_ changed: Range<Int>, first: Int, _ context: Context) {
        @inline(__always) func firstSample(_ bit: Int) -> Int { context.start(bit) - Self.precursors }
        for count in 1...maximumFlip {
            let marks = stale + (count - 1) * ReplyKernels.maximumBits
            @inline(__always) func meets(_ bit: Int) -> Bool {
                firstSample(bit) < changed.upperBound
                    && firstSample(bit + count - 1) + Self.flipReach > changed.lowerBound
            }
            let bitCount = context.bitCount
            var bit = min(first, bitCount - count)
            while bit >= 0, firstSample(bit + count - 1) + Self.flipReach > changed.lowerBound {
                if meets(bit) { marks[bit] = true }
                bit -= 1
            }
            bit = min(first, bitCount - count) + 1
            while bit <= bitCount - count, firstSample(bit) < changed.upperBound {
                if meets(bit) { marks[bit] = true }
                bit += 1
            }
        }
    }

    /// Flips bits `bit` ..< `bit + count` (in the chips, envelope and residual) when that
    /// lowers the squared error; returns whether it did.
    func tryFlip(_ bit: Int, count: Int, _ context: Context) -> Bool {
        guard trial(bit, count: count, context).gain < 0 else { return false }
        let flips = flips(bit, count: count, context)
        let changed = reach(bit, count: count, context)
        markStale(changed, first: bit, context)
        for j in changed where !context.clipped[j] {
            let (pr, pi) = predictionChange(at: j, flips)
            let r = residual + 2 * (Self.padding + j)
            r[0] -= pr
            r[1] -= pi
        }
        let env = envelope + Self.padding
        for flipped in bit..<(bit + count) {
            let start = context.start(flipped)
            let change = flipEnvelope + Int(templateClass[flipped]) * Self.flipSamples
            let s = sign(flipped)
            for m in 0..<Self.flipSamples where start + m < context.span { env[start + m] += s * change[m] }
            let chip = ReplyKernels.preambleChips + 2 * flipped
            chipOn[chip] = 1 - chipOn[chip]
            chipOn[chip + 1] = 1 - chipOn[chip + 1]
        }
        return true
    }
}
