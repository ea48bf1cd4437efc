import IQ
import ModeS

/// The examination of one candidate start: its preamble's phases, the plan of slicing
/// attempts, and where each attempt goes (judgement, the channel fit, the coherent retry).
extension StreamingDemodulator {
    /// One candidate start under examination: its samples and what the acceptance rules
    /// need to know about it.
    struct Candidate {
        /// The magnitudes from the candidate start on (stream or residual).
        let samples: UnsafePointer<UInt16>
        /// The stream position of the start.
        let position: Int
        /// The noise floor there.
        let floor: UInt32
        /// Where it lies relative to frames already found.
        let place: AcceptancePolicy.Place
        /// The start in seconds, for the address filters' expiry.
        let time: Double
    }

    /// Scores the preamble at `samples` (stream position `position`) and slices it by the
    /// attempts of its `SlicePlan` until the `AcceptancePolicy` admits one; a strong DF17/18
    /// whose every attempt failed is finally decided coherently. `inResidual`: the samples
    /// are what is left once a frame was cancelled, where that frame's inside is no longer
    /// off limits.
    func examine(
        _ samples: UnsafePointer<UInt16>, at position: Int, floor: UInt32,
        inResidual: Bool
    ) -> Examination {
        statistics.candidates += 1
        let phases: PreambleDetector.Phases
        if !inResidual, let kept = searchState.successorPhases, kept.position == position, kept.floor == floor {
            phases = kept.phases
        } else {
            phases = detector.phases(at: samples, floor: floor)
        }
        guard phases.count > 0 else { return .none }
        if !inResidual, sampleRate == .twoPointFourMega {
            let next = detector.phases(at: samples + 1, floor: floor)
            searchState.successorPhases = (position + 1, floor, next)
            if AcceptancePolicy.defersToNextStart(
                score: phases.score(0), nextScore: next.count > 0 ? next.score(0) : nil)
            {
                return .deferToNext
            }
        }
        guard
            let bestAmplitude = amplitudeWorthSlicing(
                samples, at: position, phases: phases, floor: floor, inResidual: inResidual)
        else { return .none }
        let candidate = Candidate(
            samples: samples, position: position, floor: floor,
            place: .init(inResidual: inResidual, insideFrame: position < searchState.insideFrameUntil),
            time: clock.seconds(at: position))
        let bestLevel = max(1, Int32(bestAmplitude - Double(floor)))
        let plan = SlicePlan(
            plainRanks: SlicePlan.plainRanks(count: phases.count, maximum: options.maximumPhases, score: phases.score),
            feedbackRetry: options.feedbackRetry, sequenceRetry: options.sequenceRetry,
            looksLikeOtherReplysData: options.feedbackRetry && bestAmplitude >= 5 * Double(floor)
                && detector.looksLikeDataWindow(at: samples, phase: phases.index(0), floor: floor),
            sequenceWorthwhile: SlicePlan.sequenceWorthwhile(sampleRate: sampleRate, level: bestLevel, floor: floor),
            sequencePhases: SlicePlan.sequencePhases(sampleRate: sampleRate))
        // A weak reply, where the fit has more starts (see `channelFitAttempts`).
        let weak = SlicePlan.isWeak(level: bestLevel, floor: floor)
        var slices = Slices(fitPhase: phases.index(0))
        if let found = sliceAttempts(plan, phases: phases, candidate, bestLevel: bestLevel, weak: weak, &slices) {
            return .frame(found.frame, phase: found.phase)
        }
        if let found = channelFitAttempts(
            candidate, plan: plan, slices: slices, bestPhase: phases.index(0), bestLevel: bestLevel, weak: weak)
        {
            return .frame(found.frame, phase: found.phase)
        }
        let bestPhase = phases.index(0)
        if policy.triesCoherent(firstSlice: slices.firstSlice, place: candidate.place),
            let plain = slices.firstSlice,
            let frame = coherentAttempt(
                plain, phase: bestPhase,
                level: bestAmplitude - Double(floor), candidate)
        {
            return .frame(frame, phase: bestPhase)
        }
        if !inResidual { searchState.failedStarts.append(position, score: phases.score(0)) }
        return .none
    }

    /// What the slicing attempts at one start leave for the tries after them.
    struct Slices {
        /// The plain decisions at the best phase, for the sequence and coherent attempts.
        var firstSlice: ModeSBits?
        /// Where the channel fit starts: the last sequence's bits at its phase
        /// (`fitPhase`), else the first usable slice at the best phase.
        var tentative: ModeSBits?
        var fitPhase: Int
        /// The first usable slice at its own phase, where the fit starts again when it
        /// found nothing from `tentative`.
        var firstUsable: (bits: ModeSBits, phase: Int)?

        init(fitPhase: Int) { self.fitPhase = fitPhase }
    }

    /// The pulse amplitude at the best phase of a start worth slicing, or nil for a start
    /// the start tests turn away before any slice (counted, and in the stream kept as a
    /// failed start for the search beneath a reply cancelled later): the shadow of a
    /// stronger preamble 3.5 µs on, a preamble with one pair of pulses nearly empty, a
    /// window that falls quiet after 27 µs (a Mode A/C reply's pulses), and a stream start
    /// whose first 19 bits are nearly all quiet (a reply starts later).
    private func amplitudeWorthSlicing(
        _ samples: UnsafePointer<UInt16>, at position: Int, phases: PreambleDetector.Phases,
        floor: UInt32, inResidual: Bool
    ) -> Double? {
        func refused(_ counter: inout Int) -> Double? {
            counter += 1
            if !inResidual { searchState.failedStarts.append(position, score: phases.score(0)) }
            return nil
        }
        let best = phases.index(0)
        if !inResidual, shadowsStrongerPreamble(samples, score: phases.score(0), floor: floor) {
            return refused(&statistics.shadowStarts)
        }
        if !inResidual, case let pairs = detector.pulsePairs(at: samples, phase: best, floor: floor),
            AcceptancePolicy.preambleTooUneven(strong: pairs.strong, weak: pairs.weak, floor: floor)
        {
            return refused(&statistics.unevenStarts)
        }
        let amplitude = detector.pulseAmplitude(at: samples, phase: best)
        if AcceptancePolicy.tailTooQuiet(
            loudBits: {
                slicer.loudBits(samples, phase: best, limit: $0, bits: AcceptancePolicy.tailBits, enough: $1)
            },
            amplitude: amplitude, floor: floor)
        {
            return refused(&statistics.quietTailStarts)
        }
        if !inResidual,
            AcceptancePolicy.headTooQuiet(
                loudBits: {
                    slicer.loudBits(samples, phase: best, limit: $0, bits: AcceptancePolicy.headBits, enough: $1)
                },
                amplitude: amplitude, floor: floor)
        {
            return refused(&statistics.quietHeadStarts)
        }
        return amplitude
    }

    /// Slices the candidate by each attempt of `plan` in turn until one is judged a frame;
    /// records in `slices` what the attempts leave for the tries after them.
    private func sliceAttempts(
        _ plan: SlicePlan, phases: PreambleDetector.Phases, _ candidate: Candidate, bestLevel: Int32,
        weak: Bool, _ slices: inout Slices
    ) -> (frame: Frame, phase: Int)? {
        let (samples, floor) = (candidate.samples, candidate.floor)
        if !squitterSlices.isEmpty { squitterSlices.removeAll(keepingCapacity: true) }
        for index in 0..<plan.count {
            let attempt = plan[index]
            // The sequence is only worth its cost where the plain slice at least gave a
            // format a transponder sends.
            if attempt.slicer == .sequence, slices.firstSlice == nil { continue }
            let phase = phases.index(attempt.rank)
            let level =
                attempt.slicer == .amplitudeFeedback && attempt.rank > 0
                ? max(1, Int32(detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))) : bestLevel
            let feedback = attempt.feedback(level: level)
            statistics.attempts += 1
            let sliced =
                attempt.slicer == .sequence
                ? sequenceSlicer.slice(samples, phase: phase, level: Float(feedback), floor: Float(floor))
                : slicer.slice(samples, phase: phase, feedback: feedback)
            guard let bits = sliced, policy.usable(bits, from: attempt) else { continue }
            if index == 0 { slices.firstSlice = bits }
            if slices.firstUsable == nil { slices.firstUsable = (bits, phase) }
            if weak, bits.downlinkFormat == 17 || bits.downlinkFormat == 18 { squitterSlices.append((bits, phase)) }
            if attempt.slicer == .sequence || slices.tentative == nil { slices.tentative = bits }
            if attempt.slicer == .sequence { slices.fitPhase = phase }
            if let frame = judge(bits, attempt: attempt, phase: phase, feedback: feedback, candidate) {
                return (frame, phase)
            }
        }
        return nil
    }

    /// The channel fit's tries at a candidate whose every slice failed, from the bits and
    /// phases the slices left (`slices`), or nil.
    ///
    /// The channel fit needs the raw samples (kept for cancellation) of the stream itself,
    /// and a window that does not look like another reply's data (`feedbackRanks`). Nor is it
    /// tried inside a frame just found: there the window is mostly that frame's own data at
    /// the wrong timing, and a reply that truly starts inside it is found in the residual once
    /// the frame is cancelled. (On the test skies such fits were an eighth of all fits on a
    /// dense sky, nearly a third near the noise, and gave 13 frames in 79,000: leaving them
    /// out lost 1 to 3 frames a stream, and 3 % of the instructions on a dense sky, 9 % near
    /// the noise.)
    private func channelFitAttempts(
        _ candidate: Candidate, plan: SlicePlan, slices: Slices, bestPhase: Int, bestLevel: Int32, weak: Bool
    ) -> (frame: Frame, phase: Int)? {
        guard
            options.channelFit && options.cancelOverlaps && !candidate.place.inResidual && plan.feedbackRanks > 0
                && !candidate.place.insideFrame
        else { return nil }
        let (samples, floor, fitPhase) = (candidate.samples, candidate.floor, slices.fitPhase)
        // Without any slice of a format a transponder sends, a squitter or an all-call reply
        // with one wrong format bit may still be there (`BitSlicer.sliceWithFormatBitTurned`).
        // Most such slices are noise or the inside of another reply; one naming an aircraft
        // heard (`namesHeardAircraft`) is worth a fit.
        var tentative = slices.tentative
        if tentative == nil, let turned = slicer.sliceWithFormatBitTurned(samples, phase: bestPhase),
            namesHeardAircraft(turned)
        {
            tentative = turned
        }
        // Nor where a much louder signal shares the window (`SlicePlan.fitWorthwhile`).
        guard let tentative,
            case let peak = SlicePlan.windowPeak(
                samples, span: kernels.span(bitCount: tentative.bitCount), floor: floor),
            SlicePlan.fitWorthwhile(peak: peak, level: bestLevel, sampleRate: sampleRate)
        else { return nil }
        if let frame = channelFitFrame(candidate, from: tentative, phase: fitPhase, feedback: bestLevel) {
            return (frame, fitPhase)
        }
        // The fit fits its taps to the bits it starts from and then turns only the bits that
        // lower the error one at a time, so where it ends depends on where it starts
        // (`restartedFitFrame`). It starts again on a weak reply, and at 2.0 MS/s, where the
        // sequence is decided at every strength, unless a louder signal shares the window
        // (`SlicePlan.restartWorthwhile`).
        if weak || sampleRate == .twoMega,
            SlicePlan.restartWorthwhile(peak: peak, level: bestLevel, sampleRate: sampleRate),
            let (frame, phase) = restartedFitFrame(
                candidate, tentative: tentative, fitPhase: fitPhase,
                firstUsable: slices.firstUsable, feedback: bestLevel)
        {
            statistics.restartedChannelFitFrames += 1
            return (frame, phase)
        }
        return nil
    }

    /// Whether the address field of a DF11 or DF17 `bits` (bits 9–32) names an aircraft
    /// heard, or would with one of its bits turned: a slice with a few wrong bits mostly
    /// gets the address right or one bit wrong, which the channel fit then decides again.
    /// A noise slice or the inside of another reply lands on one of those few hundred
    /// addresses (times 25) among 2^24 seldom, so the fits this asks for cost next to
    /// nothing.
    private func namesHeardAircraft(_ bits: ModeSBits) -> Bool {
        let address = UInt32(truncatingIfNeeded: bits.field(9, 32))
        if heard.seen.mayContain(address) { return true }
        return (0..<24).contains { heard.seen.mayContain(address ^ (1 << UInt32($0))) }
    }

    /// The raw samples (kept for cancellation) from stream position `position` on.
    @inline(__always)
    func rawSamples(at position: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(buffers.raw(at: position))
    }

    /// Whether the start at `samples` is the shadow of a stronger preamble 3.5 µs on (see
    /// `CandidateGate.shadowsStrongerPreamble`), by this sample rate's gate.
    private func shadowsStrongerPreamble(_ samples: UnsafePointer<UInt16>, score: Int32, floor: UInt32) -> Bool {
        switch sampleRate {
        case .twoPointFourMega:
            Gate2400.shadowsStrongerPreamble(samples, score: score, floor: floor, detector: detector)
        case .twoMega: Gate2000.shadowsStrongerPreamble(samples, score: score, floor: floor, detector: detector)
        }
    }

    /// The last try at a candidate whose every magnitude slice failed: a strong DF17/18,
    /// sliced again on its own carrier (see `ReplyCanceller.coherentBits`), where an
    /// overlapping weaker reply of similar strength garbles the magnitudes but not the
    /// phase of the stronger one's carrier. `plain`: the plain slice at the best phase;
    /// `level`: the pulse amplitude at `phase` above the floor.
    private func coherentAttempt(_ plain: ModeSBits, phase: Int, level: Double, _ candidate: Candidate) -> Frame? {
        let samples = candidate.samples
        let floor = candidate.floor
        // Below three floors above the floor, noise rather than an overlap breaks the bits;
        // and beneath a stronger reply the carrier cannot be fitted.
        guard level >= 3 * Double(floor),
            !detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
            !detector.isLopsided(at: samples, phase: phase, floor: floor),
            !interference.louderThanTwoReplies(samples, bitCount: plain.bitCount, level: level, floor: floor)
        else { return nil }
        statistics.coherentAttempts += 1
        let raw = rawSamples(at: candidate.position)
        guard
            let bits = canceller.coherentBits(
                raw: raw, offsetTenths: kernels.phaseOffsets[phase], bits: plain,
                kernels: slicer.kernels(phase: phase), confidence: confidence),
            policy.acceptsCoherent(
                repairGate.screen(bits), verdict: repairGate.judge(bits, confidence: confidence),
                isKnown: { isKnown($0, at: candidate.time) }),
            let validated = validator.validate(bits, time: candidate.time)
        else { return nil }
        statistics.coherentFrames += 1
        return validated
    }
}
