import IQ
import ModeS

/// Finds where a reply buried under a frame just decoded may start: decides whether the
/// frame shows another signal running past it, cancels the frame from the IQ samples
/// (`ReplyCanceller`) and picks the few best candidate starts of the residual.
///
/// Two overlapping replies add as complex fields, so in magnitudes the stronger one's
/// pulses bury the weaker one's bits. Once the stronger is decoded it can be subtracted,
/// and the weaker one's preamble stands out cleanly in what is left. The demodulator then
/// examines those starts with its ordinary rules (`Examination`).
struct OverlapRecovery {
    /// Which ends of a frame another signal runs past.
    struct Sides: Equatable {
        /// A signal in the samples right before the frame's first pulse: a reply that
        /// started earlier and runs into the frame.
        var before = false
        /// A signal right after the frame's last chip: a reply that started inside it.
        var after = false
        /// Whether either side shows another signal.
        var any: Bool { before || after }
    }

    /// Where to look for the buried reply's start, and the residual to look in.
    struct Starts {
        /// The residual magnitudes of the window (valid until the next cancellation),
        /// padded so a whole reply can be read past any start.
        let residual: UnsafePointer<UInt16>
        /// The stream position of `residual[0]`.
        let windowStart: Int
        /// The best-scoring starts, a preamble apart.
        let best: BestStarts
    }

    /// The reply model: spans and phase offsets.
    let kernels: ReplyKernels
    /// Scores the residual's preambles.
    let detector: PreambleDetector
    /// Subtracts the frame from the IQ samples.
    let canceller: ReplyCanceller
    /// Which gate (`Gate2400`, `Gate2000`) the residual search uses.
    let sampleRate: SampleRate
    /// The gate threshold in sixteenths of the floor (`Options.gateSixteenths`).
    let gateSixteenths: Int32
    /// The gate's quiet limit (`Options.gateQuietSixteenths`).
    let gateQuietSixteenths: Int32?

    /// Whether another reply runs on past the start or the end of the frame `bits` at
    /// `samples`: a sample louder than the limit among the 12 (5 µs) right before its first
    /// pulse, or right after its last chip. The limit is an eighth of the frame's `level`
    /// above the floor (a reply 18 dB weaker) and at least 2.5 floors above it (a reply that
    /// could be demodulated on its own): noise alone gets there in about one sample in a
    /// thousand, so few frames are cancelled for nothing. A reply wholly inside a longer
    /// frame is not looked for: it shows at neither end, and the frame's own pulses hide
    /// it everywhere else. `before`: how many samples precede `samples` in the buffer.
    func sidesRunningPast(
        _ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, floor: UInt32,
        level: Double, before: Int
    ) -> Sides {
        let limit = UInt16(min(65535, Double(floor) + max(2.5 * Double(floor), level / 8)))
        let span = kernels.span(bitCount: bits.bitCount)
        var sides = Sides()
        for index in -min(12, before)..<0 where samples[index] > limit {
            sides.before = true
            break
        }
        for index in span..<(span + 12) where samples[index] > limit {
            sides.after = true
            break
        }
        return sides
    }

    /// Subtracts the frame `bits`, found at stream position `position` and `phase`, from
    /// the window `windowStart..<windowEnd` (`raw` and `magnitudes` point at its first
    /// sample) and returns the candidate starts of a reply it buried: up to one long reply
    /// before it (`sides.before`) or inside it (`sides.after`).
    ///
    /// The buried reply's preamble is clean in the residual and outscores the windows of
    /// its own data (whose quiet chips are partly on), which pass the gate at most starts.
    /// So only the few best-scoring starts are kept, each a preamble's length from the
    /// others: slicing every start that passes would cost more than the whole search of
    /// the stream around it. Up to a preamble before the frame the residual is the stream
    /// itself, whose preambles were scored already: only `failedStarts` there (starts that
    /// passed and then failed) are offered again. From there on the residual is searched
    /// afresh.
    func buriedStarts(
        of bits: ModeSBits, at position: Int, phase: Int, floor: UInt32, sides: Sides,
        windowStart: Int, windowEnd: Int, raw: UnsafeRawPointer, magnitudes: UnsafePointer<UInt16>,
        failedStarts: RecentStarts
    ) -> Starts {
        let span = kernels.span(bitCount: bits.bitCount)
        let residual = canceller.residual(
            raw: raw, magnitudes: magnitudes, count: windowEnd - windowStart,
            replyStart: position - windowStart,
            offsetTenths: kernels.phaseOffsets[phase], bits: bits)
        // The residual's windows inside the buried reply's data are refused by their quiet
        // samples, like the stream's.
        let limits = GateLimits(floor: floor, contrastSixteenths: gateSixteenths, quietSixteenths: gateQuietSixteenths)
        var best = BestStarts()
        var fresh = position
        if sides.before {
            fresh = max(windowStart, position - 1 - PreambleDetector.samplesRead)
            failedStarts.forEach(from: windowStart, before: fresh) { start, score in
                best.offer(start, score: score, separation: kernels.preambleSpan)
            }
        }
        let last = sides.after ? min(position + span, windowEnd - kernels.replySpan) : position
        let window = (residual: residual, start: windowStart)
        switch sampleRate {
        case .twoPointFourMega:
            offerFresh(
                Gate2400.self, window, from: fresh, to: last, skipping: position, floor: floor,
                limits: limits, to: &best)
        case .twoMega:
            offerFresh(
                Gate2000.self, window, from: fresh, to: last, skipping: position, floor: floor,
                limits: limits, to: &best)
        }
        return Starts(residual: residual, windowStart: windowStart, best: best)
    }

    /// Offers every start in `first ..< last` of the residual `window` (its magnitudes and
    /// the stream position of the first) that passes `Gate` and scores a preamble to
    /// `best`, except `skipped` (the cancelled frame's own start, gone from the residual).
    /// Its own function, specialised per gate, so that the gate's vector code is inlined.
    private func offerFresh<Gate: CandidateGate>(
        _ gate: Gate.Type, _ window: (residual: UnsafePointer<UInt16>, start: Int),
        from first: Int, to last: Int, skipping skipped: Int, floor: UInt32,
        limits: GateLimits, to best: inout BestStarts
    ) {
        /// Scores the start `start` of the residual, which passed the gate.
        @inline(__always)
        func offer(_ start: Int) {
            guard start != skipped else { return }
            let phases = detector.phases(at: window.residual + (start - window.start), floor: floor)
            if phases.count > 0 { best.offer(start, score: phases.score(0), separation: kernels.preambleSpan) }
        }
        var start = first
        while start + 8 <= last {
            var passing = Gate.passingOfEight(window.residual + (start - window.start), limits)
            while passing != 0 {
                offer(start + passing.trailingZeroBitCount)
                passing &= passing &- 1
            }
            start += 8
        }
        while start < last {
            if Gate.passes(window.residual + (start - window.start), limits) { offer(start) }
            start += 1
        }
    }
}
