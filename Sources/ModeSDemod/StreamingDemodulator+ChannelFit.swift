import ModeS

/// Where the demodulator asks the channel fit (`ChannelFitSlicer`): for a frame once every
/// plain slice failed, and for its word on a slice the rules doubt.
extension StreamingDemodulator {
    /// The frame the channel fit finds for `candidate` from starts other than `tentative` at
    /// `fitPhase`, which found nothing, and the phase it was sliced at.
    ///
    /// Near the noise the sequence's bits and the first slice's, a bit or two apart, often
    /// lead the fit to different ends, each right about as often. So the fit starts again
    /// from the first usable slice (`firstUsable`); on a weak reply from every other usable
    /// slice of a squitter too, whose parity checks every bit the fit decides (address/parity
    /// replies and all-call codes, which it does not check, came out wrong from such starts
    /// now and then); and on a faint reply from the first of those with one of its least
    /// confident bits turned, the bit most likely wrong, which may be just the one that sent
    /// the fit astray. (A strong reply at 2.4 MS/s, whose first usable slice came at another
    /// phase than the best, gave 7 frames on 16 test streams this way, for 2 % of the dense
    /// sky's time: strong replies at 2.4 MS/s do not start again.)
    func restartedFitFrame(
        _ candidate: Candidate, tentative: ModeSBits, fitPhase: Int,
        firstUsable: (bits: ModeSBits, phase: Int)?,
        feedback: Int32
    ) -> (Frame, Int)? {
        if let first = firstUsable, first.bits != tentative || first.phase != fitPhase,
            let frame = channelFitFrame(candidate, from: first.bits, phase: first.phase, feedback: feedback)
        {
            return (frame, first.phase)
        }
        for (index, start) in squitterSlices.enumerated() {
            let tried =
                (start.bits == tentative && start.phase == fitPhase)
                || (start.bits == firstUsable?.bits && start.phase == firstUsable?.phase)
                || squitterSlices[..<index].contains { $0.bits == start.bits && $0.phase == start.phase }
            if !tried, let frame = channelFitFrame(candidate, from: start.bits, phase: start.phase, feedback: feedback)
            {
                return (frame, start.phase)
            }
        }
        if SlicePlan.isFaint(level: feedback, floor: candidate.floor), let first = squitterSlices.first,
            let frame = turnedBitFitFrame(candidate, from: first, feedback: feedback)
        {
            return (frame, first.phase)
        }
        return nil
    }

    /// The frame the channel fit decides for `candidate` started from `tentative` at
    /// `phase`, if the acceptance rules admit it; counted in the statistics.
    func channelFitFrame(
        _ candidate: Candidate, from tentative: ModeSBits, phase: Int,
        feedback: Int32
    ) -> Frame? {
        statistics.channelFitAttempts += 1
        let attempt = SliceAttempt(rank: 0, slicer: .channelFit)
        guard
            let bits = channelFitSlicer.slice(
                raw: rawSamples(at: candidate.position), magnitudes: candidate.samples,
                phase: phase, tentative: tentative, canceller: canceller),
            policy.usable(bits, from: attempt),
            let frame = judge(bits, attempt: attempt, phase: phase, feedback: feedback, candidate)
        else { return nil }
        statistics.channelFitFrames += 1
        return frame
    }

    /// The frame the channel fit decides for `candidate` started from `slice` with one bit
    /// turned: each of its six least confident bits after the downlink format (by the plain
    /// decisions at its phase) in turn, weakest first; nil when none gives one. Six: on 17
    /// simulated streams three found three fifths of what six find, and ten two fifths more.
    private func turnedBitFitFrame(
        _ candidate: Candidate, from slice: (bits: ModeSBits, phase: Int),
        feedback: Int32
    ) -> Frame? {
        slicer.confidence(
            candidate.samples, phase: slice.phase, feedback: 0, bitCount: slice.bits.bitCount,
            into: confidence)
        var order = (0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &order) { bytes -> Frame? in
            let weakest = bytes.bindMemory(to: Int.self)
            // The confidences are read here, before the fits' judgements overwrite them.
            let taken = RepairGate.leastConfident(confidence, bits: 6...slice.bits.bitCount, into: weakest)
            for number in weakest[..<taken] {
                var start = slice.bits
                start.flipBit(number)
                if let frame = channelFitFrame(candidate, from: start, phase: slice.phase, feedback: feedback) {
                    return frame
                }
            }
            return nil
        }
    }

    /// Whether the channel fit can decide the candidate's reply: it needs the raw samples of
    /// the stream itself (kept only when overlaps are cancelled), not a residual's.
    func canFit(_ candidate: Candidate) -> Bool {
        options.channelFit && options.cancelOverlaps && !candidate.place.inResidual
    }

    /// The channel fit's decisions for the reply the candidate's `bits` were sliced from at
    /// `phase`, started from those bits; nil when the fit finds no reply there, or cannot run
    /// (it needs the raw samples, kept only when overlaps are cancelled).
    func channelFitDecision(of bits: ModeSBits, _ candidate: Candidate, phase: Int) -> ModeSBits? {
        guard canFit(candidate) else { return nil }
        let raw = rawSamples(at: candidate.position)
        return channelFitSlicer.slice(
            raw: raw, magnitudes: candidate.samples, phase: phase, tentative: bits,
            canceller: canceller)
    }

    /// Whether the channel fit confirms the DF11 `bits` sliced at `phase`: the reply stands at
    /// least six floors above the floor (weaker ones leave the fit too little to go on), and
    /// the fit started from these bits decides every one the same and explains their code
    /// cleanly (`ChannelFitSlicer.codeFitsCleanly`). `fitted` runs the fit (see
    /// `channelFitDecision`).
    func channelFitConfirms(
        _ bits: ModeSBits, _ candidate: Candidate, phase: Int,
        fitted: () -> ModeSBits?
    ) -> Bool {
        guard stands(6, floorsAbove: candidate.floor, candidate.samples, phase: phase),
            fitted() == bits,
            channelFitSlicer.codeFitsCleanly(bitCount: bits.bitCount)
        else { return false }
        statistics.codesConfirmedByChannelFit += 1
        return true
    }

    /// Whether the channel fit, started from the DF11 `bits` that a slicer other than the fit
    /// decided, decides the same interrogator code (the all-call test and the unambiguous-code test
    /// below six floors, see `AcceptancePolicy.acceptsAllCall`, `AcceptancePolicy.codeUnambiguous`
    /// and `AcceptancePolicy.decidesSameCode`). The fit's own bits cannot vouch for themselves.
    /// `fitted` runs the fit (see `channelFitDecision`).
    func channelFitAgrees(_ bits: ModeSBits, attempt: SliceAttempt, fitted: () -> ModeSBits?) -> Bool {
        attempt.slicer != .channelFit && AcceptancePolicy.decidesSameCode(fitted(), as: bits)
    }

    /// Whether the channel fit's DF11 `bits` stand at least two floors above the floor and
    /// its model explains their interrogator code cleanly (see
    /// `ChannelFitSlicer.codeFitsCleanly`): weaker replies have too many near-even bits for
    /// 7 unchecked ones to be right often enough.
    func fitsCleanly(_ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        stands(2, floorsAbove: floor, samples, phase: phase)
            && channelFitSlicer.codeFitsCleanly(bitCount: bits.bitCount)
    }
}
