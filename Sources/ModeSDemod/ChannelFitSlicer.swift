import IQ
import ModeS

/// Decides a reply's bits against a model of the reply's own channel, fitted to the reply.
///
/// The other slicers judge magnitudes against rectangular chips. A real receiver's band
/// limit smears every pulse into the samples after it and rings, an echo adds a delayed
/// copy at its own phase, and at 2.0 MS/s a reply about half a sample off puts each chip
/// into two samples: strong replies then lose bits that no amount of signal fixes, because
/// the model, not the noise, is wrong. In the complex baseband all of these are a linear
/// filter on the reply's envelope (`ChannelTaps`). Once the carrier is removed (its
/// frequency from `carrierStep`, which an echo cannot bias), the taps are fitted by least
/// squares to this reply: its preamble (known exactly) and its bits as a first slice
/// decided them (mostly right). The bits are then decided again against the fitted model,
/// flipping any bit (at 2.0 MS/s also any pair of neighbouring bits) that lowers the
/// squared error, and the model is fitted once more to the improved bits. At 2.0 MS/s the
/// bits are finally decided as the sequence the last model explains best (`FittedSequence`),
/// which turns runs of wrong bits that single and paired flips cannot. Clipped samples
/// take no part. Seven complex parameters against 130 to 270 complex samples leave the fit
/// well determined.
///
/// A class only to own its tables and scratch memory; one per demodulator.
final class ChannelFitSlicer {
    /// Taps of the model before and after the sample (see `ChannelTaps`).
    static let precursors = ChannelTaps.precursors
    static let postcursors = ChannelTaps.postcursors
    static let taps = ChannelTaps.taps
    /// Rounds of fitting then deciding.
    static let rounds = 2
    /// Passes over the bits per round (a pass that flips nothing ends the round): the
    /// first finds nearly every wrong bit, the second the few a neighbour's fix reveals.
    static let passes = 2
    /// The least correlation of the magnitudes with the tentative envelope worth a fit.
    /// Decisions follow the noise, so even noise correlates with its own slice (0.3 to
    /// 0.6); at 2.4 MS/s nearly all replies the fit then decodes reach 0.55, and most
    /// candidates (noise, the insides of other replies) are turned away here before any
    /// sample is loaded. At 2.0 MS/s the magnitude slicers decide a reply about half a
    /// sample off with many wrong bits however strong it is (each sample inside a bit holds
    /// half of either chip), and such slices correlate less; the fit, ending with its search
    /// over sequences, still decides them. There the least is 0.45 (lower still finds few
    /// more replies for much more time, nearly all of it spent on noise).
    static func minimumCorrelation(at rate: SampleRate) -> Float {
        rate == .twoMega ? 0.45 : 0.55
    }
    /// The largest share of the samples' energy the first fit may leave unexplained.
    /// Replies the fit decodes nearly all leave under 0.55 (noise takes about half at
    /// 3 dB); noise never gets below 0.65, the insides of other replies rarely.
    static let maximumUnexplained: Float = 0.55
    /// The confidence of a bit decided as cleanly as the model allows: flipping it costs
    /// exactly the energy the flip changes. Half of it: noise or interference took half.
    static let typicalConfidence: Int32 = 1024

    /// Chips in a long reply with its preamble.
    static let chips = ChipEnvelope.chips
    /// Zeros around the envelope, so the taps can read past either end.
    static let padding = 8

    let kernels: ReplyKernels
    /// Per phase and chip: the first sample the chip touches and its shares from there
    /// (`chipEnvelope.chipFirstSample`, `chipShares`).
    let firstSample: UnsafeMutablePointer<Int32>
    let shares: UnsafeMutablePointer<SIMD4<Float>>
    /// Samples a long reply can touch.
    let length: Int
    /// The chips as decided and the envelope they make, one row per phase.
    let chipEnvelope: ChipEnvelope
    /// `chipEnvelope.chipOn`: 1 for each chip decided on, 0 for the others.
    let chipOn: UnsafeMutablePointer<Float>

    /// Scratch: the envelope (padded), the complex residual (interleaved, padded), the flip
    /// templates (see `buildTemplates`); and the fit's own scratch.
    let envelope: UnsafeMutablePointer<Float>
    let residual: UnsafeMutablePointer<Float>
    /// Per residual component: 1 for the reply's unclipped samples, 0 elsewhere.
    let weights: UnsafeMutablePointer<Float>
    let flipEnvelope: UnsafeMutablePointer<Float>
    let flipPrediction: UnsafeMutablePointer<Float>
    /// Per flip size (1 or 2, `maximumBits` entries each) and first bit: whether the
    /// residual that trial reads may have changed since it last ran (see `takeStale`).
    let stale: UnsafeMutablePointer<Bool>
    let fitter = ChannelTaps()
    /// The search over whole sequences that ends each slice at 2.0 MS/s (nil at 2.4).
    let sequence: FittedSequence?
    /// What the last successful `slice` decided with, for `confidence`.
    var lastContext: Context?

    init(kernels: ReplyKernels) {
        self.kernels = kernels
        length = kernels.replySpan
        let classes = kernels.sampleRate == .twoMega ? 1 : 5
        self.classes = classes
        maximumFlip = kernels.sampleRate == .twoMega ? 2 : 1
        templateClass = (0..<ReplyKernels.maximumBits).map { Int32($0 % classes) }
        let chip = kernels.sampleRate.tenthsPerChip
        chipEnvelope = ChipEnvelope(tenthsPerChip: chip, origins: kernels.phaseOffsets, length: length)
        chipOn = chipEnvelope.chipOn
        firstSample = chipEnvelope.chipFirstSample
        shares = chipEnvelope.chipShares
        let padded = length + 2 * Self.padding
        envelope = .allocate(capacity: padded)
        envelope.initialize(repeating: 0, count: padded)
        residual = .allocate(capacity: 2 * padded)
        residual.initialize(repeating: 0, count: 2 * padded)
        weights = .allocate(capacity: 2 * padded)
        weights.initialize(repeating: 0, count: 2 * padded)
        flipEnvelope = .allocate(capacity: classes * Self.flipSamples)
        flipEnvelope.initialize(repeating: 0, count: classes * Self.flipSamples)
        flipPrediction = .allocate(capacity: 2 * classes * Self.flipReach)
        flipPrediction.initialize(repeating: 0, count: 2 * classes * Self.flipReach)
        stale = .allocate(capacity: 2 * ReplyKernels.maximumBits)
        stale.initialize(repeating: true, count: 2 * ReplyKernels.maximumBits)
        sequence =
            kernels.sampleRate == .twoMega
            ? FittedSequence(envelope: chipEnvelope, phases: kernels.phaseOffsets.count, length: length) : nil
    }

    deinit {
        envelope.deallocate()
        residual.deallocate()
        weights.deallocate()
        flipEnvelope.deallocate()
        flipPrediction.deallocate()
        stale.deallocate()
    }

    /// The bits of the candidate whose raw samples start at `raw` (magnitudes at
    /// `magnitudes`), with phase `phase`, decided against its fitted channel starting from
    /// `tentative` (a slice of the same candidate). `canceller` loads the samples and
    /// estimates the carrier; `confidence(bitCount:into:)` then measures the bits. Nil when
    /// the candidate does not look like a reply the tentative bits roughly describe, when
    /// the fit fails, or when the decided format is not one a transponder sends or changes
    /// length.
    func slice(
        raw: UnsafeRawPointer, magnitudes: UnsafePointer<UInt16>, phase: Int, tentative: ModeSBits,
        canceller: ReplyCanceller
    ) -> ModeSBits? {
        lastContext = nil
        let bitCount = tentative.bitCount
        let span = min(length, kernels.span(bitCount: bitCount))
        let chipBase = phase * Self.chips
        chipEnvelope.set(tentative)
        let env = envelope + Self.padding
        guard
            buildEnvelope(phase: phase, span: span, correlatingWith: magnitudes)
                >= Self.minimumCorrelation(at: kernels.sampleRate)
        else {
            return nil
        }
        // The taps read past the span's end: zeros there (the padding before it is never
        // written).
        (env + span).update(repeating: 0, count: length + Self.padding - span)
        let (samples, clipped) = derotated(raw, span: span, canceller: canceller)
        var bits = tentative
        var context = Context(
            span: span, bitCount: bitCount, samples: samples, clipped: clipped, chipBase: chipBase,
            firstSample: firstSample,
            model: ChannelTaps.Model(real: .init(repeating: 0), imaginary: .init(repeating: 0)))
        guard fitAndFlip(&bits, &context) else { return nil }
        // At 2.0 MS/s, runs of bits that flips cannot turn (see `FittedSequence`).
        if let sequence {
            let decided = sequence.decide(
                model: context.model, samples: samples, clipped: clipped, span: span,
                phase: phase, bitCount: bitCount)
            if decided != bits {
                bits = decided
                // The confidences read the residual of the bits returned.
                chipEnvelope.set(bits)
                _ = buildEnvelope(phase: phase, span: span, correlatingWith: magnitudes)
                _ = computeResidual(samples, context)
            }
        }
        let format = bits.downlinkFormat
        guard BitSlicer.isAccepted(format: format), (format >= 16) == (bitCount == 112) else { return nil }
        lastContext = context
        return bits
    }

    /// The reply's samples from `raw` (`span` of them, loaded by `canceller`) with its
    /// carrier removed, and which were clipped. The carrier comes from the samples with the
    /// tentative bits as the envelope (which `ReplyCanceller`'s estimate weighs them with).
    @inline(__always)
    private func derotated(
        _ raw: UnsafeRawPointer, span: Int, canceller: ReplyCanceller
    ) -> (samples: UnsafePointer<Float>, clipped: UnsafePointer<Bool>) {
        canceller.load(raw, count: span)
        canceller.envelope.update(from: envelope + Self.padding, count: span)
        let omega = carrierStep(
            UnsafePointer(canceller.iq), UnsafePointer(canceller.clipped), span: span,
            coarse: canceller.coarseFrequency(canceller.iq, canceller.clipped, span: span))
        canceller.derotate(canceller.iq, span: span, omega: omega)
        return (UnsafePointer(canceller.derotated), UnsafePointer(canceller.clipped))
    }

    /// The rounds of fitting the taps to `bits` and flipping the bits (one, or at 2.0 MS/s
    /// two neighbours) that lower the squared error, until a round flips nothing; leaves the
    /// last model in `context`. False when a fit fails, or when the first leaves most of the
    /// energy unexplained: noise, or the inside of another reply, that these bits do not
    /// roughly describe.
    @inline(__always)
    private func fitAndFlip(_ bits: inout ModeSBits, _ context: inout Context) -> Bool {
        for round in 0..<Self.rounds {
            guard
                let model = fitter.fit(
                    envelope: envelope + Self.padding, samples: context.samples, clipped: context.clipped,
                    span: context.span)
            else { return false }
            context.model = model
            let unexplained = computeResidual(context.samples, context)
            if round == 0, unexplained > Self.maximumUnexplained { return false }
            buildTemplates(context)
            // New templates and residual: every trial has to run.
            stale.update(repeating: true, count: 2 * ReplyKernels.maximumBits)
            var changed = false
            for _ in 0..<Self.passes {
                var flipped = false
                for count in 1...maximumFlip {
                    for bit in 0...(context.bitCount - count)
                    where takeStale(bit, count: count)
                        && tryFlip(bit, count: count, context)
                    {
                        bits.flipBit(bit + 1)
                        if count == 2 { bits.flipBit(bit + 2) }
                        flipped = true
                    }
                }
                if !flipped { break }
                changed = true
            }
            if !changed { break }
        }
        return true
    }

    /// Writes the confidence of each bit the last `slice` decided to `confidence`: what
    /// flipping it alone would cost, as a share of what it costs for a correct bit without
    /// noise, times `typicalConfidence`. Valid only right after a `slice` that returned
    /// bits, before the canceller is used again (the residual refers to its samples).
    func confidence(bitCount: Int, into confidence: UnsafeMutablePointer<Int32>) {
        guard let context = lastContext else {
            confidence.update(repeating: 0, count: bitCount)
            return
        }
        for bit in 0..<bitCount {
            confidence[bit] = Int32(max(0, min(2, flipCost(bit, context))) * Float(Self.typicalConfidence))
        }
    }

    /// What flipping bit `bit` alone would cost, as a share of what it costs for a correct
    /// bit without noise: about 1 for a clean bit, negative for a wrong one (0 when the
    /// flip changes nothing the model sees).
    func flipCost(_ bit: Int, _ context: Context) -> Float {
        let (gain, energy) = trial(bit, count: 1, context)
        return energy > 0 ? gain / energy : 0
    }

    /// Whether the last `slice`'s model explains the end of the reply cleanly: over the
    /// samples of its last 12 bits the residual holds at most a fifth of the model's own
    /// energy (another reply across them leaves far more), and flipping any of the last 7
    /// bits (a DF11's interrogator code, which no parity checks) would cost at least half
    /// of what a clean bit's flip costs. Same validity as `confidence(bitCount:into:)`.
    func codeFitsCleanly(bitCount: Int) -> Bool {
        guard let context = lastContext else { return false }
        let samples = context.samples
        var unexplained: Float = 0
        var explained: Float = 0
        for j in max(0, context.start(bitCount - 12) - Self.precursors)..<context.span where !context.clipped[j] {
            let r = residual + 2 * (Self.padding + j)
            let (er, ei) = (r[0], r[1])
            let (pr, pi) = (samples[2 * j] - er, samples[2 * j + 1] - ei)
            unexplained += er * er + ei * ei
            explained += pr * pr + pi * pi
        }
        guard unexplained <= explained / 5 else { return false }
        return ((bitCount - 7)..<bitCount).allSatisfy { flipCost($0, context) >= 0.5 }
    }

    /// Whether none of the last 7 bits (a DF11's interrogator code) was decided near-even
    /// by the last `slice`: flipping each would cost at least 0.3 of what a clean bit's flip
    /// costs. A bit whose two chips hold the same energy (both empty, both on, or half a
    /// pulse in each) costs up to about a quarter to flip, depending on how its chips fall
    /// on the samples; a clean bit costs about 1.
    /// Same validity as `confidence(bitCount:into:)`.
    func codeBitsDecided(bitCount: Int) -> Bool {
        guard let context = lastContext else { return false }
        return ((bitCount - 7)..<bitCount).allSatisfy { flipCost($0, context) >= 0.3 }
    }

    /// Whether a sample of the last 7 bits (a DF11's interrogator code) was clipped at the
    /// converter's rails: the model left it out, so it saw those bits' pulses only through
    /// their unclipped edges and the echoes between them. Same validity as
    /// `confidence(bitCount:into:)`.
    func codeClipped(bitCount: Int) -> Bool {
        guard let context = lastContext else { return true }
        return (context.start(bitCount - 7)..<context.span).contains { context.clipped[$0] }
    }

    /// What one slice works with besides the scratch buffers.
    struct Context {
        let span: Int
        let bitCount: Int
        /// The derotated samples the model was fitted to.
        let samples: UnsafePointer<Float>
        let clipped: UnsafePointer<Bool>
        /// The phase's first entry in `firstSample` and `shares`.
        let chipBase: Int
        let firstSample: UnsafePointer<Int32>
        var model: ChannelTaps.Model

        /// The first sample of bit `bit`'s first chip: where its flip template starts.
        @inline(__always)
        func start(_ bit: Int) -> Int {
            Int(firstSample[chipBase + ReplyKernels.preambleChips + 2 * bit])
        }
    }
    /// Bits after which chips sit on the samples alike again: five at 2.4 MS/s (twelve
    /// samples), one at 2.0 MS/s (two samples).
    let classes: Int
    /// How many neighbouring bits are flipped together: two at 2.0 MS/s, where a reply
    /// half a sample off shows only the changes between bits, so a wrong bit and its
    /// neighbour must turn together; one at 2.4 MS/s, where every bit shows on its own.
    let maximumFlip: Int
    /// Each bit's class (its index modulo `classes`).
    let templateClass: [Int32]
}
