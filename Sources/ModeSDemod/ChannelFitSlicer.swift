import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    private static let chips = ChipEnvelope.chips
    /// Zeros around the envelope, so the taps can read past either end.
    private static let padding = 8

    private let kernels: ReplyKernels
    /// Per phase and chip: the first sample the chip touches and its shares from there
    /// (`chipEnvelope.chipFirstSample`, `chipShares`).
    private let firstSample: UnsafeMutablePointer<Int32>
    private let shares: UnsafeMutablePointer<SIMD4<Float>>
    /// Samples a long reply can touch.
    private let length: Int
    /// The chips as decided and the envelope they make, one row per phase.
    private let chipEnvelope: ChipEnvelope
    /// `chipEnvelope.chipOn`: 1 for each chip decided on, 0 for the others.
    private let chipOn: UnsafeMutablePointer<Float>

    /// Scratch: the envelope (padded), the complex residual (interleaved, padded), the flip
    /// templates (see `buildTemplates`); and the fit's own scratch.
    private let envelope: UnsafeMutablePointer<Float>
    private let residual: UnsafeMutablePointer<Float>
    /// Per residual component: 1 for the reply's unclipped samples, 0 elsewhere.
    private let weights: UnsafeMutablePointer<Float>
    private let flipEnvelope: UnsafeMutablePointer<Float>
    private let flipPrediction: UnsafeMutablePointer<Float>
    /// Per flip size (1 or 2, `maximumBits` entries each) and first bit: whether the
    /// residual that trial reads may have changed since it last ran (see `takeStale`).
    private let stale: UnsafeMutablePointer<Bool>
    private let fitter = ChannelTaps()
    /// The search over whole sequences that ends each slice at 2.0 MS/s (nil at 2.4).
    private let sequence: FittedSequence?
    /// What the last successful `slice` decided with, for `confidence`.
    private var lastContext: Context?

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
        // The carrier, from the samples with the tentative bits as the envelope (which
        // `ReplyCanceller`'s estimate weighs the samples with).
        canceller.load(raw, count: span)
        canceller.envelope.update(from: env, count: span)
        let omega = carrierStep(
            UnsafePointer(canceller.iq), UnsafePointer(canceller.clipped), span: span,
            coarse: canceller.coarseFrequency(canceller.iq, canceller.clipped, span: span))
        canceller.derotate(canceller.iq, span: span, omega: omega)
        let samples = UnsafePointer(canceller.derotated)
        let clipped = UnsafePointer(canceller.clipped)

        var bits = tentative
        var context = Context(
            span: span, bitCount: bitCount, samples: samples, clipped: clipped, chipBase: chipBase,
            firstSample: firstSample,
            model: ChannelTaps.Model(real: .init(repeating: 0), imaginary: .init(repeating: 0)))
        for round in 0..<Self.rounds {
            guard
                let model = fitter.fit(
                    envelope: envelope + Self.padding, samples: samples, clipped: clipped,
                    span: span)
            else { return nil }
            context.model = model
            let unexplained = computeResidual(samples, context)
            // A fit that leaves most of the energy unexplained is not of a reply these
            // bits roughly describe: noise, or the inside of another reply.
            if round == 0, unexplained > Self.maximumUnexplained { return nil }
            buildTemplates(context)
            // New templates and residual: every trial has to run.
            stale.update(repeating: true, count: 2 * ReplyKernels.maximumBits)
            var changed = false
            for _ in 0..<Self.passes {
                var flipped = false
                for count in 1...maximumFlip {
                    for bit in 0...(bitCount - count)
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
    private func flipCost(_ bit: Int, _ context: Context) -> Float {
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

    /// Writes the envelope of the chips as set (`ChipEnvelope`), at `phase`, over the first
    /// `span` samples, and returns its correlation coefficient with the `magnitudes`: a
    /// cheap first look that turns away most candidates (noise, the insides of other
    /// replies) before the samples are even loaded. Leaves the envelope past `span` as it
    /// was (`slice` clears it once a candidate passes). Each group of eight samples goes
    /// into the correlation's sums as it is written.
    private func buildEnvelope(phase: Int, span: Int, correlatingWith magnitudes: UnsafePointer<UInt16>) -> Float {
        let env = envelope + Self.padding
        let table = chipEnvelope.row(phase)
        @inline(__always) func value(_ j: Int) -> Float { table.value(j) }
        // Eight lanes of partial sums, magnitudes scaled to about 1 (so squares stay far
        // from a float's limits), then the few samples left over.
        var m8 = SIMD8<Float>()
        var e8 = SIMD8<Float>()
        var mm8 = SIMD8<Float>()
        var ee8 = SIMD8<Float>()
        var me8 = SIMD8<Float>()
        let scale: Float = 1.0 / 65536
        var j = 0
        while j + 8 <= span {
            var e = SIMD8<Float>()
            for lane in 0..<8 {
                e[lane] = value(j + lane)
                env[j + lane] = e[lane]
            }
            let m = SIMD8<Float>(UnsafeRawPointer(magnitudes + j).loadUnaligned(as: SIMD8<UInt16>.self)) * scale
            m8 += m
            e8 += e
            mm8 += m * m
            ee8 += e * e
            me8 += m * e
            j += 8
        }
        var sm = m8.pairwiseSum
        var se = e8.pairwiseSum
        var smm = mm8.pairwiseSum
        var see = ee8.pairwiseSum
        var sme = me8.pairwiseSum
        while j < span {
            let e = value(j)
            env[j] = e
            let m = Float(magnitudes[j]) * scale
            sm += m
            se += e
            smm += m * m
            see += e * e
            sme += m * e
            j += 1
        }
        let n = Float(span)
        let covariance = sme - sm * se / n
        let vm = smm - sm * sm / n
        let ve = see - se * se / n
        return vm > 0 && ve > 0 ? covariance / (vm * ve).squareRoot() : 0
    }

    /// Fills the residual of every sample under the context's model (zero where clipped)
    /// and returns the share of the samples' energy the model leaves unexplained.
    private func computeResidual(_ samples: UnsafePointer<Float>, _ context: Context) -> Float {
        // Zeros around the span; every sample inside it is written below.
        let padded = 2 * (length + 2 * Self.padding)
        let before = 2 * Self.padding
        let after = 2 * (Self.padding + context.span)
        residual.update(repeating: 0, count: before)
        weights.update(repeating: 0, count: before)
        (residual + after).update(repeating: 0, count: padded - after)
        (weights + after).update(repeating: 0, count: padded - after)
        // Four samples at a time: each tap's envelope values for four samples are one load,
        // and the sums run in four lanes, each addition not waiting for the one before.
        let env = UnsafePointer(envelope + Self.padding)
        let model = context.model
        var unexplained4 = SIMD4<Float>()
        var total4 = SIMD4<Float>()
        var j = 0
        while j + 4 <= context.span {
            var pr = SIMD4<Float>(repeating: model.real[Self.taps])
            var pi = SIMD4<Float>(repeating: model.imaginary[Self.taps])
            for tap in 0..<Self.taps {
                let x = UnsafeRawPointer(env + j + Self.precursors - tap).loadUnaligned(as: SIMD4<Float>.self)
                pr += model.real[tap] * x
                pi += model.imaginary[tap] * x
            }
            let y = UnsafeRawPointer(samples + 2 * j).loadUnaligned(as: SIMD8<Float>.self)
            let kept = .!clippedLanes(context.clipped + j)
            let zero = SIMD4<Float>()
            let rr = zero.replacing(with: y.evenHalf - pr, where: kept)
            let ri = zero.replacing(with: y.oddHalf - pi, where: kept)
            let w = zero.replacing(with: 1, where: kept)
            let at = 2 * (Self.padding + j)
            UnsafeMutableRawPointer(residual + at).storeBytes(
                of: SIMD8(rr[0], ri[0], rr[1], ri[1], rr[2], ri[2], rr[3], ri[3]), as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(weights + at).storeBytes(
                of: SIMD8(w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3]), as: SIMD8<Float>.self)
            unexplained4 += rr * rr + ri * ri
            total4 += w * (y.evenHalf * y.evenHalf + y.oddHalf * y.oddHalf)
            j += 4
        }
        var unexplained = unexplained4.pairwiseSum
        var total = total4.pairwiseSum
        for j in j..<context.span {
            let r = residual + 2 * (Self.padding + j)
            guard !context.clipped[j] else {
                r[0] = 0
                r[1] = 0
                weights[2 * (Self.padding + j)] = 0
                weights[2 * (Self.padding + j) + 1] = 0
                continue
            }
            weights[2 * (Self.padding + j)] = 1
            weights[2 * (Self.padding + j) + 1] = 1
            let (pr, pi) = predict(context.model, at: j)
            let (yr, yi) = (samples[2 * j], samples[2 * j + 1])
            r[0] = yr - pr
            r[1] = yi - pi
            unexplained += r[0] * r[0] + r[1] * r[1]
            total += yr * yr + yi * yi
        }
        return total > 0 ? unexplained / total : 1
    }

    /// The carrier's phase step per sample, from pairs of samples that the model must
    /// predict alike: where the envelope around two samples `lag` apart is the same over
    /// every tap's reach (and the samples sit alike on the chips), the channel adds the
    /// same to both, so iq[n]·conj(iq[n − lag]) has the phase lag·ω whatever echoes and
    /// filter do to the reply. (Phase steps between neighbouring samples inside pulses,
    /// `ReplyCanceller.coarseFrequency`, are thrown off by an echo at an opposite phase.)
    /// Short lags first, which are unambiguous, then longer ones for precision, each
    /// unwrapped around the previous estimate, starting from `coarse` (which may be off by
    /// a few tenths of a radian, but not by the ambiguity of the shortest lag).
    private func carrierStep(
        _ iq: UnsafePointer<Float>, _ clipped: UnsafePointer<Bool>, span: Int,
        coarse: Double
    ) -> Double {
        // The shortest shift that keeps samples on the same chip alignment and can find
        // alike surroundings in Manchester data: one bit (two samples) at 2.0 MS/s; five
        // chips (six samples) at 2.4 MS/s.
        let base = kernels.sampleRate == .twoMega ? 2 : 6
        var omega = coarse
        // Lags of 1, 4 and 16 times the shortest.
        var lag = base
        while lag <= 16 * base, lag < span / 2 {
            defer { lag *= 4 }
            var (re, im) = pairSum(iq, clipped, span: span, lag: lag, minimumEnvelope: 0.5)
            // Samples on a pulse carry the most of the reply; but a reply at the converter's
            // rails has nearly all of those clipped, and then the echoes and edges between
            // its pulses (any sample the taps reach a pulse from) have to do. Only then: for
            // a weak reply those are mostly noise, and a lag without pairs is better skipped.
            if re == 0, im == 0, (0..<span).contains(where: { clipped[$0] }) {
                (re, im) = pairSum(iq, clipped, span: span, lag: lag, minimumEnvelope: 0)
            }
            guard re != 0 || im != 0 else { continue }
            let angle = atan2(im, re)
            var step = angle - omega * Double(lag)
            step -= 2 * .pi * (step / (2 * .pi)).rounded()
            omega += step / Double(lag)
        }
        return omega
    }

    /// The sum of iq[n]·conj(iq[n − lag]) over the unclipped pairs whose envelopes are
    /// alike over every tap's reach (see `carrierStep`), with an envelope of at least
    /// `minimumEnvelope` at n and a pulse somewhere within the taps' reach (which an
    /// envelope above 0 at n already means).
    private func pairSum(
        _ iq: UnsafePointer<Float>, _ clipped: UnsafePointer<Bool>, span: Int, lag: Int,
        minimumEnvelope: Float
    ) -> (Double, Double) {
        let env = UnsafePointer(envelope + Self.padding)
        let reach = Self.reachLanes
        // An envelope above 0 at n already puts a pulse within reach.
        let checksReach = minimumEnvelope <= 0
        // Four pairs at a time: the tests for four samples are lanes of vector comparisons
        // (the reach of sample n + lane is lane `lane` of loads from n − postcursors + tap),
        // and the products are summed in four lanes. Which pairs take part is as good as
        // random, so it is computed rather than branched on, and the others add zero.
        // Floats: the angle of a sum of a few hundred products needs no more.
        var sumRe = SIMD4<Float>()
        var sumIm = SIMD4<Float>()
        var n = lag
        // One loop for each value of `checksReach`, so that the first pass (an envelope of
        // at least a half) does not test for pulses at all.
        @inline(__always) func sumPairs(checkingReach: Bool) {
            while n + 4 <= span {
                @inline(__always) func four(_ at: Int) -> SIMD4<Float> {
                    UnsafeRawPointer(env + at).loadUnaligned(as: SIMD4<Float>.self)
                }
                var refused =
                    clippedLanes(clipped + n) .| clippedLanes(clipped + n - lag)
                    .| (four(n) .< minimumEnvelope)
                var pulse = SIMDMask<SIMD4<Int32>>(repeating: false)
                for tap in 0..<Self.taps {
                    let here = four(n - Self.postcursors + tap)
                    refused .|= here .!= four(n - lag - Self.postcursors + tap)
                    if checkingReach { pulse .|= here .> 0 }
                }
                if checkingReach { refused .|= .!pulse }
                let now = UnsafeRawPointer(iq + 2 * n).loadUnaligned(as: SIMD8<Float>.self)
                let before = UnsafeRawPointer(iq + 2 * (n - lag)).loadUnaligned(as: SIMD8<Float>.self)
                let (i1, q1) = (now.evenHalf, now.oddHalf)
                let (i0, q0) = (before.evenHalf, before.oddHalf)
                sumRe += (i1 * i0 + q1 * q0).replacing(with: 0, where: refused)
                sumIm += (q1 * i0 - i1 * q0).replacing(with: 0, where: refused)
                n += 4
            }
        }
        if checksReach { sumPairs(checkingReach: true) } else { sumPairs(checkingReach: false) }
        var re = Double(sumRe.pairwiseSum)
        var im = Double(sumIm.pairwiseSum)
        for n in n..<span {
            let (i1, q1, i0, q0) = (
                Double(iq[2 * n]), Double(iq[2 * n + 1]),
                Double(iq[2 * (n - lag)]), Double(iq[2 * (n - lag) + 1])
            )
            let usable =
                Self.flag(clipped[n]) | Self.flag(clipped[n - lag]) | Self.flag(env[n] < minimumEnvelope)
                | Self.flag(!Self.alike(env, n, n - lag, reach: reach))
                | Self.flag(checksReach && !Self.reachesPulse(env, n, reach: reach)) == 0
            re += usable ? i1 * i0 + q1 * q0 : 0
            im += usable ? q1 * i0 - i1 * q0 : 0
        }
        return (re, im)
    }

    /// 1 for true, 0 for false: conditions combined without branches.
    @inline(__always)
    private static func flag(_ condition: Bool) -> Int { condition ? 1 : 0 }

    /// The lanes of `alike`'s eight samples that lie within the taps' reach.
    private static let reachLanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8(repeating: Int32(taps))

    /// Whether the envelope over every tap's reach is the same around samples `n` and `m`.
    /// Alike envelopes are the same sums of the same shares: equal exactly. The reach,
    /// `postcursors` before to `precursors` after, is the first `taps` of eight samples
    /// (`reach`: `reachLanes`) compared at once (the envelope is padded on both sides).
    @inline(__always)
    private static func alike(_ env: UnsafePointer<Float>, _ n: Int, _ m: Int, reach: SIMDMask<SIMD8<Int32>>) -> Bool {
        let here = UnsafeRawPointer(env + n - postcursors).loadUnaligned(as: SIMD8<Float>.self)
        let there = UnsafeRawPointer(env + m - postcursors).loadUnaligned(as: SIMD8<Float>.self)
        return !any((here .!= there) .& reach)
    }

    /// Whether the envelope has a pulse anywhere within the taps' reach of sample `n`.
    @inline(__always)
    private static func reachesPulse(_ env: UnsafePointer<Float>, _ n: Int, reach: SIMDMask<SIMD8<Int32>>) -> Bool {
        let here = UnsafeRawPointer(env + n - postcursors).loadUnaligned(as: SIMD8<Float>.self)
        return any((here .> 0) .& reach)
    }

    @inline(__always)
    private func predict(_ model: ChannelTaps.Model, at j: Int) -> (Float, Float) {
        model.predict(ChannelTaps.regressors(envelope + Self.padding, at: j))
    }

    /// What one slice works with besides the scratch buffers.
    private struct Context {
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

    /// Samples a bit's two chips touch, from the first sample of its first chip.
    private static let flipSamples = 6
    /// Samples whose prediction a flip moves: the taps' reach on either side.
    private static let flipReach = flipSamples + taps
    /// Bits after which chips sit on the samples alike again: five at 2.4 MS/s (twelve
    /// samples), one at 2.0 MS/s (two samples).
    private let classes: Int
    /// How many neighbouring bits are flipped together: two at 2.0 MS/s, where a reply
    /// half a sample off shows only the changes between bits, so a wrong bit and its
    /// neighbour must turn together; one at 2.4 MS/s, where every bit shows on its own.
    private let maximumFlip: Int
    /// Each bit's class (its index modulo `classes`).
    private let templateClass: [Int32]

    /// For each class of bit (its index modulo `classes`), what flipping it from 1 to 0
    /// does: the change of the envelope over `flipSamples` samples (first chip off, second
    /// on) and of the model's prediction over `flipReach` samples from `precursors` before
    /// (complex, interleaved). A flip from 0 to 1 is the negative. Computed once per fit,
    /// so a trial is a short sum against the residual.
    private func buildTemplates(_ context: Context) {
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
    private func sign(_ bit: Int) -> Float {
        chipOn[ReplyKernels.preambleChips + 2 * bit] != 0 ? 1 : -1
    }

    /// The change of the prediction at sample `j` if bits `bit` ..< `bit + count` flip.
    @inline(__always)
    private func predictionChange(at j: Int, _ flips: Flips) -> (Float, Float) {
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
    private struct Flips {
        var count: Int
        var starts: SIMD2<Int>
        var templates: (UnsafePointer<Float>, UnsafePointer<Float>)
        var signs: SIMD2<Float>
    }

    @inline(__always)
    private func flips(_ bit: Int, count: Int, _ context: Context) -> Flips {
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
    private func reach(_ bit: Int, count: Int, _ context: Context) -> Range<Int> {
        let low = max(0, context.start(bit) - Self.precursors)
        let high = min(context.span, context.start(bit + count - 1) - Self.precursors + Self.flipReach)
        return low..<max(low, high)
    }

    /// What flipping bits `bit` ..< `bit + count` would do: `gain`, the change of the
    /// squared error over the reply's unclipped samples (negative: the flip fits better),
    /// and `energy`, the squared size of the change of the prediction (what a flip of a
    /// correct bit costs without noise).
    private func trial(_ bit: Int, count: Int, _ context: Context) -> (gain: Float, energy: Float) {
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
    private func singleTrial(_ bit: Int, _ context: Context) -> (gain: Float, energy: Float) {
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
    private func takeStale(_ bit: Int, count: Int) -> Bool {
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
    private func markStale(_ changed: Range<Int>, first: Int, _ context: Context) {
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
    private func tryFlip(_ bit: Int, count: Int, _ context: Context) -> Bool {
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
