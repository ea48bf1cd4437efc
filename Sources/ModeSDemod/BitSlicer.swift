import ModeS

/// Turns the samples of a candidate reply into 56 or 112 bits, at one sub-sample phase.
///
/// Each bit is the sign of its matched-filter score (see `ReplyKernels`). The first five
/// bits are the downlink format, which fixes the length; formats that no transponder sends
/// (or that the validator cannot check) end the attempt after five bits, which is what
/// keeps the cost of noise candidates low.
///
/// With a `feedback` amplitude (the reply's pulse level above the noise floor), each bit's
/// score is corrected for what the neighbouring chips leak into its samples: the chip
/// before it as already decided, the chip after it as a coin toss (see
/// `ReplyKernels.Interference`). Where a sample straddles two bits, as at 2.0 MS/s when a
/// reply is half a sample off, the plain score cannot tell 1-1 from 0-0 and this
/// decision feedback can. It propagates an error when one is made, so the demodulator only
/// tries it when the plain decisions fail the CRC.
///
/// A class only to own its copy of the kernels in raw memory, read without bounds checks
/// or reference counting in the hot path.
final class BitSlicer {
    private let kernels: UnsafeMutablePointer<ReplyKernels.BitKernel>
    private let leaks: UnsafeMutablePointer<ReplyKernels.Interference>
    /// Per kernel, the weights that average its first chip's samples (lanes 0-3) and its
    /// second chip's (lanes 4-7): the kernel's positive and negative weights, each set
    /// scaled to sum to 1 (all 0 for a chip no sample covers). For the loudness counts.
    private let chipMeans: UnsafeMutablePointer<SIMD8<Float>>
    private let kernelCount: Int

    /// Downlink formats worth demodulating: the ones `FrameValidator` can check (0, 4, 5,
    /// 11, 16, 17, 18, 20, 21). A constant expression, so that reading it in the hot path
    /// costs no check that it was initialised.
    private static let acceptedFormats: UInt32 =
        1 << 0 | 1 << 4 | 1 << 5 | 1 << 11 | 1 << 16 | 1 << 17
        | 1 << 18 | 1 << 20 | 1 << 21

    /// The `feedback` value that selects smear feedback instead of the amplitude model:
    /// after a 1 (pulse then gap) the next bit's first sample is weighted 5/4, after a 0
    /// (gap then pulse, whose tail leaks forward) 4/5 (13/16). It needs no amplitude and
    /// suits pulses smeared by the receiver's filter more than by the sampling phase.
    static let smearFeedback: Int32 = -1

    init(kernels source: ReplyKernels) {
        kernelCount = source.bitKernels.count
        kernels = .allocate(capacity: kernelCount)
        _ = UnsafeMutableBufferPointer(start: kernels, count: kernelCount).initialize(from: source.bitKernels)
        chipMeans = .allocate(capacity: kernelCount)
        for (index, kernel) in source.bitKernels.enumerated() {
            let weights = SIMD4<Float>(Float(kernel.w0), Float(kernel.w1), Float(kernel.w2), Float(kernel.w3))
            let first = weights.replacing(with: 0, where: weights .< 0)
            let second = (-weights).replacing(with: 0, where: weights .> 0)
            let firstSum = first.pairwiseSum
            let secondSum = second.pairwiseSum
            (chipMeans + index).initialize(
                to: SIMD8(
                    lowHalf: firstSum > 0 ? first / firstSum : .zero,
                    highHalf: secondSum > 0 ? second / secondSum : .zero))
        }
        leaks = .allocate(capacity: kernelCount)
        _ = UnsafeMutableBufferPointer(start: leaks, count: kernelCount).initialize(from: source.bitInterference)
    }

    deinit {
        kernels.deallocate()
        chipMeans.deallocate()
        leaks.deallocate()
    }

    /// Whether a transponder sends downlink format `format` (and `FrameValidator` can
    /// check it): other formats end an attempt early.
    @inline(__always)
    static func isAccepted(format: Int) -> Bool {
        acceptedFormats & (1 << UInt32(truncatingIfNeeded: format)) != 0
    }

    /// The bit kernels of `phase`, one per bit, for slicers working on other samples than
    /// magnitudes (see `ReplyCanceller.coherentBits`).
    func kernels(phase: Int) -> UnsafePointer<ReplyKernels.BitKernel> {
        UnsafePointer(kernels + phase * ReplyKernels.maximumBits)
    }

    /// Slices the candidate starting at `samples` with phase `phase`; nil when its downlink
    /// format is not one a transponder sends.
    @inline(__always)
    func slice(_ samples: UnsafePointer<UInt16>, phase: Int, feedback: Int32) -> ModeSBits? {
        if feedback > 0 {
            return slice(AmplitudeFeedback.self, samples, phase: phase, amplitude: feedback, confidence: nil)
        }
        if feedback < 0 {
            return slice(SmearFeedback.self, samples, phase: phase, amplitude: 0, confidence: nil)
        }
        return slice(NoFeedback.self, samples, phase: phase, amplitude: 0, confidence: nil)
    }

    /// The plain decisions at `phase` of a candidate whose downlink format came out one bit
    /// from 17 or from 11 (as 1, 19, 25, or 3, 9, 10, 15, 27: formats `slice` turns away),
    /// with the format set to that one; nil for any other format. Such a candidate may be a
    /// squitter or an all-call reply with one format bit wrong and most others right: a
    /// start for the channel fit, whose result the CRC (which covers the format) and the
    /// acceptance rules then judge.
    func sliceWithFormatBitTurned(_ samples: UnsafePointer<UInt16>, phase: Int) -> ModeSBits? {
        slice(NoFeedback.self, samples, phase: phase, amplitude: 0, confidence: nil, turningFormatBit: true)
    }

    /// The format one bit from `format` that `sliceWithFormatBitTurned` takes it for, or nil.
    static func formatOneBitFrom(_ format: Int) -> Int? {
        guard !isAccepted(format: format) else { return nil }
        if (format ^ 17).nonzeroBitCount == 1 { return 17 }
        if (format ^ 11).nonzeroBitCount == 1 { return 11 }
        return nil
    }

    /// Slices again and writes the absolute score of each of the first `bitCount` bits to
    /// `confidence`: how sure each decision was, which the `RepairGate` needs. Every bit is
    /// scored whatever downlink format the decisions spell: the bits being judged may come
    /// from another slicer (the sequence's, or with the format bit turned), whose format
    /// these decisions need not share. Only called for the rare candidates whose syndrome
    /// points at a repair or whose code must be weighed.
    func confidence(
        _ samples: UnsafePointer<UInt16>, phase: Int, feedback: Int32, bitCount: Int,
        into confidence: UnsafeMutablePointer<Int32>
    ) {
        if feedback > 0 {
            _ = slice(
                AmplitudeFeedback.self, samples, phase: phase, amplitude: feedback, confidence: confidence,
                scoring: bitCount)
        } else if feedback < 0 {
            _ = slice(
                SmearFeedback.self, samples, phase: phase, amplitude: 0, confidence: confidence, scoring: bitCount)
        } else {
            _ = slice(NoFeedback.self, samples, phase: phase, amplitude: 0, confidence: confidence, scoring: bitCount)
        }
    }

    /// How many of the reply's bits have their "off" chip (the second chip of a 1, the
    /// first of a 0) louder than `limit` on average: a clean reply has none, one overlapped
    /// by another reply has one in every few bits where the other's pulses land. Unlike a
    /// comparison of amplitudes, this works when both replies are clipped at full scale.
    func loudOffChips(
        _ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int, limit: Double,
        from firstBit: Int = 0, enough: Int = Int.max
    ) -> Int {
        let base = phase * ReplyKernels.maximumBits
        let bound = Float(limit)
        var loud = 0
        for bit in firstBit..<bits.bitCount {
            let means = chipMeans(base + bit, samples)
            // The chip that should be empty: the second of a 1, the first of a 0.
            if (bits.bit(bit + 1) == 1 ? means.second : means.first) > bound {
                loud += 1
                if loud >= enough { break }
            }
        }
        return loud
    }

    /// Whether both chips of bit `bit` (0-based) at `phase` are louder than `limit` on
    /// average: a reply puts a pulse in one of them, so the other holds someone else's.
    func bothChipsLoud(_ bit: Int, _ samples: UnsafePointer<UInt16>, phase: Int, limit: Double) -> Bool {
        let means = chipMeans(phase * ReplyKernels.maximumBits + bit, samples)
        return min(means.first, means.second) > Float(limit)
    }

    /// How many of the first `count` bits at `phase` have both chips louder than `limit`
    /// (`bothChipsLoud`), counting no further than `enough`.
    func bothChipsLoudCount(
        _ count: Int, _ samples: UnsafePointer<UInt16>, phase: Int, limit: Double,
        enough: Int
    ) -> Int {
        var loud = 0
        for bit in 0..<count where bothChipsLoud(bit, samples, phase: phase, limit: limit) {
            loud += 1
            if loud >= enough { break }
        }
        return loud
    }

    /// How many of the bit periods `bits` (0-based) at `phase` have either chip louder than
    /// `limit` on average: every bit of a reply puts a pulse in one of its chips, so a window
    /// with few loud bits holds no reply there (see `AcceptancePolicy.tailTooQuiet`). Only
    /// whether there are `enough` is wanted: the result is `enough` when there are that
    /// many, and otherwise some number below it (the count stops as soon as the answer is
    /// known).
    func loudBits(
        _ samples: UnsafePointer<UInt16>, phase: Int, limit: Double, bits: Range<Int>,
        enough: Int
    ) -> Int {
        let base = phase * ReplyKernels.maximumBits
        guard !bits.isEmpty else { return 0 }
        // A chip's mean passes `limit` only if one of its samples does, and a sample lies
        // in at most two bits (it is shorter than a bit), so fewer than `enough` / 2 loud
        // samples under the bits settle the answer, at a few vector comparisons instead of
        // a weighted mean per bit. At a limit of twice the floor (a start whose pulses stand
        // a floor or more above it) noise passes in about one sample in twenty-three, and
        // the bound often decides (a strong Mode A/C reply's starts, over before these
        // bits); a fainter start's lower limit lets noise through too often for it.
        let first = Int(kernels[base + bits.lowerBound].offset)
        let last = Int(kernels[base + bits.upperBound - 1].offset) + 3
        let loudSamples = samplesAbove(limit, samples + first, count: last - first + 1)
        if 2 * loudSamples < enough { return 2 * loudSamples }
        let bound = Float(limit)
        var loud = 0
        var bit = bits.lowerBound
        // Four bits between the tests for an early end: in a noise window whether a bit is
        // loud is a coin toss, which a branch per bit would mispredict half the time.
        while bit < bits.upperBound {
            let end = min(bit + 4, bits.upperBound)
            while bit < end {
                let means = chipMeans(base + bit, samples)
                loud &+= max(means.first, means.second) > bound ? 1 : 0
                bit &+= 1
            }
            if loud >= enough { return enough }
            if loud + (bits.upperBound - bit) < enough { break }
        }
        return loud
    }

    /// How many of the `count` magnitudes from `samples` may stand above `limit`: those above
    /// it, and those within one unit of it (which a weighted mean computed in floats could
    /// put above it by rounding), counted eight at a time. It may read up to seven samples
    /// past `count` (the buffer always extends a reply's span past any start), which only
    /// makes the count larger.
    @inline(__always)
    private func samplesAbove(_ limit: Double, _ samples: UnsafePointer<UInt16>, count: Int) -> Int {
        let cut = SIMD8<UInt16>(repeating: UInt16(clamping: Int(max(0, limit - 1).rounded(.down))))
        var counts = SIMD8<UInt16>(repeating: 0)
        var index = 0
        while index < count {
            counts &+= SIMD8<UInt16>(repeating: 0).replacing(with: 1, where: narrowLanes(samples, index) .> cut)
            index += 8
        }
        return Int(counts.wrappedSum())
    }

    /// The mean magnitude of each chip of kernel `index` (phase × maximumBits + bit), over
    /// the samples that chip covers, weighted as the kernel weighs them.
    @inline(__always)
    private func chipMeans(_ index: Int, _ samples: UnsafePointer<UInt16>) -> (first: Float, second: Float) {
        let s = samples + Int(kernels[index].offset)
        let values = SIMD4<Float>(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3]))
        let products = SIMD8(lowHalf: values, highHalf: values) * chipMeans[index]
        return (products.lowHalf.pairwiseSum, products.highHalf.pairwiseSum)
    }

    /// The bit a score decides: 1 when it is positive. Branch-free: noise bits are a coin
    /// toss, which a branch predictor cannot learn.
    @inline(__always)
    private static func decision(_ score: Int32) -> UInt32 {
        UInt32(bitPattern: 0 &- score) >> 31
    }

    /// `on` when `flag` is 1, `off` when it is 0, by masking: a branch would be as
    /// unpredictable as the decision it depends on.
    @inline(__always)
    private static func pick(_ flag: UInt32, _ on: Int32, _ off: Int32) -> Int32 {
        off ^ ((on ^ off) & (0 &- Int32(bitPattern: flag)))
    }

    /// The three ways of deciding a bit, as types: the slice loop is specialised for each,
    /// so the choice is made once per attempt rather than once per bit.
    private protocol Feedback { static var rule: FeedbackRule { get } }
    private enum FeedbackRule { case none, amplitude, smear }
    private enum NoFeedback: Feedback { static var rule: FeedbackRule { .none } }
    private enum AmplitudeFeedback: Feedback { static var rule: FeedbackRule { .amplitude } }
    private enum SmearFeedback: Feedback { static var rule: FeedbackRule { .smear } }

    /// One attempt's decisions, bit by bit, with the previous decision that the feedback
    /// carries into the next bit.
    private struct Decisions<Rule: Feedback> {
        /// The bit kernels and their leaks at the attempt's phase.
        let table: UnsafePointer<ReplyKernels.BitKernel>
        let leak: UnsafePointer<ReplyKernels.Interference>
        let samples: UnsafePointer<UInt16>
        /// The reply's level, for amplitude feedback.
        let amplitude: Int32
        /// Where each bit's |score| goes, when asked.
        let confidence: UnsafeMutablePointer<Int32>?
        /// Whether the previous bit's decision feeds a pulse into this one: its second
        /// chip carried a pulse (amplitude feedback: it was a 0), or its first did (smear
        /// feedback: it was a 1). The last preamble chip is quiet.
        var previousOn: UInt32 = 0

        /// Decides bit `bit` (0-based): 1 or 0.
        @inline(__always)
        mutating func decide(_ bit: Int) -> UInt64 {
            let kernel = table[bit]
            let s = samples + Int(kernel.offset)
            let first = kernel.w0 &* Int32(s[0])
            var score = first &+ kernel.w1 &* Int32(s[1]) &+ kernel.w2 &* Int32(s[2]) &+ kernel.w3 &* Int32(s[3])
            // Both feedbacks make a score for either previous decision and then pick one:
            // the two scores do not wait for the previous bit, so only the pick does.
            if Rule.rule == .smear {
                // The first sample weighted 16/16 for the first bit, else 20/16 after a 1
                // and 13/16 after a 0.
                let rest = score &- first
                let weight: (off: Int32, on: Int32) = bit == 0 ? (16, 16) : (13, 20)
                let off = (weight.off &* first &+ 16 &* rest) >> 4
                let on = (weight.on &* first &+ 16 &* rest) >> 4
                score = BitSlicer.pick(previousOn, on, off)
                previousOn = BitSlicer.decision(score)
            } else if Rule.rule == .amplitude {
                // Subtract what the neighbouring chips are expected to add: the previous
                // chip as decided, the next one as a coin toss, the own chips' imbalance.
                // Overlaps are in tenths, so amplitude × overlap / 10 is a magnitude.
                let terms = leak[bit]
                let off = (amplitude &* (terms.next &+ terms.own)) / 20
                let on = (amplitude &* (2 &* terms.previous &+ terms.next &+ terms.own)) / 20
                score &-= BitSlicer.pick(previousOn, on, off)
                previousOn = 1 &- BitSlicer.decision(score)
            }
            if let confidence { confidence[bit] = score < 0 ? 0 &- score : score }
            return UInt64(BitSlicer.decision(score))
        }
    }

    /// Slices with `Rule`; `amplitude` is the reply's level for amplitude feedback. With
    /// `scoring`, that many bits are decided (and scored) whatever format they spell.
    @inline(__always)
    private func slice<Rule: Feedback>(
        _ rule: Rule.Type, _ samples: UnsafePointer<UInt16>, phase: Int,
        amplitude: Int32, confidence: UnsafeMutablePointer<Int32>?,
        turningFormatBit: Bool = false, scoring: Int? = nil
    ) -> ModeSBits? {
        var decisions = Decisions<Rule>(
            table: UnsafePointer(kernels + phase * ReplyKernels.maximumBits),
            leak: UnsafePointer(leaks + phase * ReplyKernels.maximumBits), samples: samples,
            amplitude: amplitude, confidence: confidence)
        var word: UInt64 = 0
        for bit in 0..<5 { word = (word << 1) | decisions.decide(bit) }
        var df = UInt32(truncatingIfNeeded: word)
        if turningFormatBit {
            guard let format = Self.formatOneBitFrom(Int(df)) else { return nil }
            df = UInt32(format)
            word = UInt64(format)
        }
        guard scoring != nil || Self.isAccepted(format: Int(df)) else { return nil }
        let bitCount = scoring ?? (df >= 16 ? 112 : 56)
        for bit in 5..<min(bitCount, 64) { word = (word << 1) | decisions.decide(bit) }
        var bits = ModeSBits(bitCount: bitCount)
        if bitCount == 56 {
            word <<= 8
            for index in 0..<7 { bits.setByte(index, UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index))) }
        } else {
            for index in 0..<8 { bits.setByte(index, UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index))) }
            var tail: UInt64 = 0
            for bit in 64..<112 { tail = (tail << 1) | decisions.decide(bit) }
            tail <<= 16
            for index in 0..<6 { bits.setByte(8 + index, UInt8(truncatingIfNeeded: tail >> UInt64(56 - 8 * index))) }
        }
        return bits
    }
}
