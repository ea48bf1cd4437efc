import ModeS

/// The judgement of one slice: the screening by format and parity, the repairs, and the
/// acceptance rules (`AcceptancePolicy`, `RepairGate`) with the measurements they ask for.
extension StreamingDemodulator {
    /// Applies the acceptance rules, in `AcceptancePolicy`'s order, to the bits one attempt
    /// sliced at `phase` with `feedback`; returns the validated frame or nil. Bit
    /// confidences are only computed for the rules that need them.
    func judge(
        _ sliced: ModeSBits, attempt: SliceAttempt, phase: Int, feedback: Int32,
        _ candidate: Candidate
    ) -> Frame? {
        if sliced.downlinkFormat == 11, sliced.bitCount == 56, CRC.syndrome(of: sliced) == 0 {
            heard.codeZeroReadings.record(address: UInt32(sliced.field(9, 32)), at: candidate.position)
        }
        let screening = repairGate.screen(sliced)
        if screening == .reject {
            return threeBitRepaired(sliced, attempt: attempt, phase: phase, feedback: feedback, candidate)
        }
        let slice = JudgedSlice(attempt: attempt, phase: phase, feedback: feedback, candidate: candidate)
        guard let (bits, repairedBits) = routed(sliced, screening, slice),
            firmAndAgreeing(bits, screening, slice)
        else { return nil }
        // The aircraft's own standing of this code, looked up at most once (the all-call test
        // and the unambiguous-code test).
        var standing: AddressCodes.Standing?
        func ownCode() -> AddressCodes.Standing {
            if let known = standing { return known }
            let looked = heard.addressCodes.standing(
                of: AcceptancePolicy.interrogatorCode(of: bits),
                address: UInt32(bits.field(9, 32)), at: candidate.time)
            standing = looked
            return looked
        }
        // The channel fit of these bits, run at most once however many rules ask for it.
        var fit: ModeSBits?? = nil
        func fitted() -> ModeSBits? {
            if let known = fit { return known }
            let decided = channelFitDecision(of: bits, candidate, phase: phase)
            fit = .some(decided)
            return decided
        }
        guard acceptsAllCall(bits, slice, ownCode: ownCode, fitted: fitted) else { return nil }
        if bits.downlinkFormat == 11 {
            guard codeUnambiguous(bits, slice, ownCode: ownCode, fitted: fitted),
                codeStands(bits, slice, fitted: fitted)
            else { return nil }
        } else if screening == .needsJudgement {
            guard smallRepairStands(bits, slice) else { return nil }
        }
        // The all-call repair, last: the channel fit's word on a repaired reply's code, where
        // it may be wrong too (its run shared with the all-call test and the channel-fit
        // recheck).
        if repairedBits > 0,
            policy.allCallRepairNeedsChannelFit(
                stationCode: AcceptancePolicy.interrogatorCode(of: bits) != 0, attempt: attempt,
                strong: stands(6, floorsAbove: candidate.floor, candidate.samples, phase: phase)),
            fitted()?.field(AcceptancePolicy.firstCodeBit, 56) != bits.field(AcceptancePolicy.firstCodeBit, 56)
        {
            return nil
        }
        return vouchedFrame(bits, slice, repairedBits: repairedBits)
    }

    /// One slice under judgement: the attempt that decided it, at which phase and with
    /// which feedback, of which candidate. What every rule's measurement needs besides the
    /// bits.
    struct JudgedSlice {
        let attempt: SliceAttempt
        let phase: Int
        let feedback: Int32
        let candidate: Candidate
    }

    /// The address/parity route and the window test for the screened bits `sliced`, then
    /// the all-call repair or the address/parity repair where the screening asks for one:
    /// the bits to judge further and how many bits the all-call repair turned, or nil.
    private func routed(
        _ sliced: ModeSBits, _ screening: RepairGate.Screening, _ slice: JudgedSlice
    ) -> (bits: ModeSBits, repairedBits: Int)? {
        let (attempt, phase, feedback, candidate) = (slice.attempt, slice.phase, slice.feedback, slice.candidate)
        let (samples, floor, time) = (candidate.samples, candidate.floor, candidate.time)
        var bits = sliced
        // The route takes two lookups and the window test measures the samples: an
        // address/parity slice naming no aircraft (most noise) is dropped before measuring.
        let parity = screening == .addressParity ? CRC.syndrome(of: bits) : 0
        let route = policy.addressParityRoute(
            screening, place: candidate.place, seen: heard.seen.mayContain(parity),
            nearSeen: heard.near.mayContain(parity))
        if route == .reject { return nil }
        guard
            policy.passesWindowChecks(
                screening, place: candidate.place,
                looksLikeDataWindow: detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
                lopsided: detector.isLopsided(at: samples, phase: phase, floor: floor))
        else { return nil }
        // The all-call repair: an all-call reply with one wrong bit outside its code, from an
        // aircraft already confirmed. Where its code may be wrong too, the channel fit is asked
        // last (see `judge`).
        var repairedBits = 0
        if screening == .allCallRepair {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            guard let number = repairGate.allCallRepair(bits, confidence: confidence) else { return nil }
            bits.flipBit(number)
            guard isKnown(UInt32(bits.field(9, 32)), at: time) else { return nil }
            repairedBits = 1
        }
        switch route {
        case .asIs: break
        case .reject: return nil
        case .repairOneBit:
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            guard
                let number = repairGate.addressParityRepair(
                    bits, confidence: confidence,
                    isKnown: {
                        heard.seen.mayContain($0) && isKnown($0, at: time)
                    })
            else { return nil }
            bits.flipBit(number)
        }
        return (bits, repairedBits)
    }

    /// The firmness test and the altitude and identity agreement of an address/parity
    /// reply; other replies pass.
    private func firmAndAgreeing(_ bits: ModeSBits, _ screening: RepairGate.Screening, _ slice: JudgedSlice) -> Bool {
        let (attempt, phase, candidate) = (slice.attempt, slice.phase, slice.candidate)
        let samples = candidate.samples
        if policy.requiresFirmness(screening) {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: slice.feedback)
            // The clipping is read from the raw samples, kept only for cancellation.
            let readsClipping = options.cancelOverlaps && policy.readsClipping(attempt: attempt, place: candidate.place)
            let raw = rawSamples(at: candidate.position)
            guard
                repairGate.firmEnough(
                    confidence, count: bits.bitCount,
                    typicalScore: typicalScore(attempt, samples, phase: phase, floor: candidate.floor),
                    decidedAtRails: {
                        readsClipping
                            && clippedBits.decides(bits, bit: $0 + 1, phase: phase, raw: raw, magnitudes: samples)
                    })
            else { return false }
        }
        if screening == .addressParity,
            !AcceptancePolicy.agreesWithSquitters(bits, reports: heard.squitterReports, at: candidate.time)
        {
            statistics.squitterMismatches += 1
            return false
        }
        return true
    }

    /// The all-call test (`AcceptancePolicy.acceptsAllCall`) with the measurements it asks
    /// for; `ownCode` and `fitted` are `judge`'s, each run at most once per slice.
    private func acceptsAllCall(
        _ bits: ModeSBits, _ slice: JudgedSlice, ownCode: () -> AddressCodes.Standing,
        fitted: () -> ModeSBits?
    ) -> Bool {
        let (attempt, phase, candidate) = (slice.attempt, slice.phase, slice.candidate)
        let (samples, floor) = (candidate.samples, candidate.floor)
        return policy.acceptsAllCall(
            bits, attempt: attempt,
            overlapped: interference.overlapped(
                bits, samples, phase: phase, floor: floor,
                onlyFrom: AcceptancePolicy.overlapMattersFrom(bits)),
            followedClosely: interference.followedClosely(samples, phase: phase, floor: floor),
            followerStartsLate: interference.followerStartsLate(samples, phase: phase, floor: floor),
            codeBelievable: interference.nonZeroCodeBelievable(bits, samples, phase: phase, floor: floor),
            plainAgrees: interference.plainAgreesOnCode(bits, samples, phase: phase),
            fitsCleanly: fitsCleanly(bits, samples, phase: phase, floor: floor),
            codeDecided: channelFitSlicer.codeBitsDecided(bitCount: bits.bitCount),
            codeClipped: channelFitSlicer.codeClipped(bitCount: bits.bitCount),
            codeUnderCancelledFrame: searchState.cancelledFrame.overlaps(
                (candidate.position + kernels.firstSample(ofBit: bits.bitCount - 6))..<(candidate.position
                    + kernels.span(bitCount: bits.bitCount))),
            confirmedByChannelFit: channelFitConfirms(bits, candidate, phase: phase, fitted: fitted),
            fitAgreesBelowSixFloors: !stands(6, floorsAbove: floor, samples, phase: phase)
                && channelFitAgrees(bits, attempt: attempt, fitted: fitted),
            clearOfNoise: !canFit(candidate) || stands(4, floorsAbove: floor, samples, phase: phase),
            ownCode: ownCode())
    }

    /// The unambiguous-code test (`AcceptancePolicy.codeUnambiguous`) of a DF11, with the
    /// confidences and measurements it asks for. Near the noise, a weak bit of a station's
    /// code is weighed only when the channel fit decides the same code, and below six floors
    /// the fit's agreement settles a doubt of code 0.
    private func codeUnambiguous(
        _ bits: ModeSBits, _ slice: JudgedSlice, ownCode: () -> AddressCodes.Standing,
        fitted: () -> ModeSBits?
    ) -> Bool {
        let (attempt, phase, candidate) = (slice.attempt, slice.phase, slice.candidate)
        let (samples, floor) = (candidate.samples, candidate.floor)
        measureConfidence(attempt, bits, samples, phase: phase, feedback: slice.feedback)
        // The channel fit's confidences are on its own scale, which floors do not measure.
        let firm =
            AcceptancePolicy.interrogatorCode(of: bits) == 0 && attempt.slicer != .channelFit
            ? RepairGate.squitterFirmScore(floor: floor, bitScale: kernels.bitScale) : .max
        let (weak, overstated) = repairGate.codeBits(confidence, count: bits.bitCount, firm: firm)
        return policy.codeUnambiguous(
            AcceptancePolicy.interrogatorCode(of: bits), weakBits: weak, overstated: overstated,
            clearOfNoise: stands(4, floorsAbove: floor, samples, phase: phase),
            strong: stands(6, floorsAbove: floor, samples, phase: phase),
            fitAgrees: channelFitAgrees(bits, attempt: attempt, fitted: fitted),
            // The clipping is read from the raw samples, kept only for cancellation.
            decidedAtRails: options.cancelOverlaps
                && policy.readsClipping(attempt: attempt, place: candidate.place)
                && clippedBits.decidesCode(
                    bits, phase: phase, raw: rawSamples(at: candidate.position),
                    magnitudes: samples),
            ownCode: ownCode(),
            believed: { heard.interrogators.believes($0, at: candidate.time) })
    }

    /// The channel-fit recheck, then the code-0 reading test and the feedback-code test
    /// (doubts that the code might be 0 after all), of a DF11 whose code is unambiguous.
    private func codeStands(_ bits: ModeSBits, _ slice: JudgedSlice, fitted: () -> ModeSBits?) -> Bool {
        let (attempt, phase, candidate) = (slice.attempt, slice.phase, slice.candidate)
        let samples = candidate.samples
        guard
            policy.codeStandsAgainstChannelFit(
                bits, attempt: attempt, place: candidate.place,
                strong: stands(6, floorsAbove: candidate.floor, samples, phase: phase),
                fitted: fitted)
        else {
            statistics.codesOverruledByChannelFit += 1
            return false
        }
        let interrogatorCode = AcceptancePolicy.interrogatorCode(of: bits)
        return policy.stationCodeStands(
            interrogatorCode,
            codeZeroNearby: heard.codeZeroReadings.contains(
                address: UInt32(bits.field(9, 32)), near: candidate.position,
                reach: AcceptancePolicy.codeZeroReach))
            && policy.feedbackCodeStands(
                interrogatorCode, attempt: attempt,
                plainWeak: {
                    slicer.confidence(samples, phase: phase, feedback: 0, bitCount: bits.bitCount, into: confidence)
                    return repairGate.codeBits(confidence, count: bits.bitCount).weak
                },
                fitAgrees: channelFitAgrees(bits, attempt: attempt, fitted: fitted))
    }

    /// The confidence verdict on a one- or two-bit repair (or else the collision repair),
    /// then the small-repair squitter agreement.
    private func smallRepairStands(_ bits: ModeSBits, _ slice: JudgedSlice) -> Bool {
        let (phase, candidate) = (slice.phase, slice.candidate)
        let time = candidate.time
        measureConfidence(slice.attempt, bits, candidate.samples, phase: phase, feedback: slice.feedback)
        guard
            policy.admits(repairGate.judge(bits, confidence: confidence), isKnown: { isKnown($0, at: time) })
                || repairsCollision(bits, phase: phase, candidate)
        else { return false }
        guard
            AcceptancePolicy.smallRepairAgreesWithSquitters(
                bits, fix: repairGate.repair(of: bits),
                clearOfNoise: stands(4, floorsAbove: candidate.floor, candidate.samples, phase: phase),
                reports: heard.squitterReports, at: time)
        else {
            statistics.squitterMismatches += 1
            return false
        }
        return true
    }

    /// The frame of bits every other rule passed: a DF11's code vouched for (the vouching
    /// test, or the known-address code test), then validated, its code recorded for its
    /// aircraft and an all-call repair counted.
    private func vouchedFrame(_ bits: ModeSBits, _ slice: JudgedSlice, repairedBits: Int) -> Frame? {
        let candidate = slice.candidate
        let time = candidate.time
        // Whether the address was known before this reply (validating a DF11 confirms it).
        let code = policy.codeToVouchFor(bits)
        let knownBefore =
            code != nil
            && policy.codeOfKnownAddressBelieved(
                attempt: slice.attempt,
                addressKnown: isKnown(UInt32(bits.field(9, 32)), at: time),
                codeFirm: codeFirm(
                    bits, samples: candidate.samples, phase: slice.phase, feedback: slice.feedback,
                    floor: candidate.floor))
        // Vouched for before validating: validating a DF11 confirms its address, which must
        // not happen for a reply whose code is then refused (a later attempt at the same
        // reply would find its address known and believe the code on that alone).
        if let code, !heard.interrogators.vouch(code, address: UInt32(bits.field(9, 32)), time: time), !knownBefore {
            return nil
        }
        guard var frame = validator.validate(bits, time: time) else { return nil }
        if bits.downlinkFormat == 11 {
            heard.addressCodes.record(
                AcceptancePolicy.interrogatorCode(of: bits), address: UInt32(bits.field(9, 32)), time: time)
        }
        if repairedBits > 0 {
            frame.correctedBits += repairedBits
            statistics.allCallRepairs += 1
        }
        return frame
    }

    /// Whether every interrogator-code bit of the DF11 `bits` was decided firmly at `phase` (see
    /// `RepairGate.codeFirm`), measured against a clean bit of this reply's amplitude, the reply
    /// stands at least six floors above the floor (about 12 dB): below that, noise still decides
    /// one bit in a few thousand firmly wrong, and a DF11 from a known aircraft has no other check
    /// on its code; and none of its last 12 bits has its empty chip at 9/16 of the pulse level (the
    /// all-call test allows one): the first pulses of an equally strong reply starting over the
    /// code bits can flip one firmly.
    private func codeFirm(
        _ bits: ModeSBits, samples: UnsafePointer<UInt16>, phase: Int, feedback: Int32,
        floor: UInt32
    ) -> Bool {
        let level = detector.pulseAmplitude(at: samples, phase: phase) - Double(floor)
        guard level >= 6 * Double(floor),
            slicer.loudOffChips(
                bits, samples, phase: phase, limit: Double(floor) + 9.0 / 16.0 * level,
                from: bits.bitCount - 12, enough: 1) == 0
        else { return false }
        slicer.confidence(samples, phase: phase, feedback: feedback, bitCount: bits.bitCount, into: confidence)
        return repairGate.codeFirm(
            confidence, count: bits.bitCount,
            typicalScore: typicalBitScore(samples, phase: phase, floor: floor))
    }

    /// Whether the reply at `samples` stands at least `floors` noise floors above `floor`: its
    /// pulse amplitude at `phase`, less the floor, is `floors` times the floor or more. The
    /// rules' yardstick of a reply's strength.
    func stands(
        _ floors: Double, floorsAbove floor: UInt32, _ samples: UnsafePointer<UInt16>,
        phase: Int
    ) -> Bool {
        detector.pulseAmplitude(at: samples, phase: phase) - Double(floor) >= floors * Double(floor)
    }

    /// Writes the confidence of each bit of `attempt`'s decisions `bits` to `confidence`: the bit
    /// slicer's scores at `phase` with `feedback`, or the channel fit's own.
    func measureConfidence(
        _ attempt: SliceAttempt, _ bits: ModeSBits, _ samples: UnsafePointer<UInt16>,
        phase: Int, feedback: Int32
    ) {
        if attempt.slicer == .channelFit {
            channelFitSlicer.confidence(bitCount: bits.bitCount, into: confidence)
        } else {
            slicer.confidence(samples, phase: phase, feedback: feedback, bitCount: bits.bitCount, into: confidence)
        }
    }

    /// The confidence a clean bit of `attempt`'s decisions would get (see `measureConfidence`).
    private func typicalScore(
        _ attempt: SliceAttempt, _ samples: UnsafePointer<UInt16>, phase: Int,
        floor: UInt32
    ) -> Int32 {
        attempt.slicer == .channelFit
            ? ChannelFitSlicer.typicalConfidence
            : typicalBitScore(samples, phase: phase, floor: floor)
    }

    /// The score a clean bit of the reply at `samples` would get: its pulse amplitude
    /// above the floor through the bit kernel.
    private func typicalBitScore(_ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Int32 {
        let amplitude = detector.pulseMean(at: samples, phase: phase) - Double(floor)
        return Int32(max(0, amplitude)) &* kernels.bitScale
    }

    /// Whether `address` was confirmed by a clean CRC recently (without touching the
    /// validator's own filter).
    func isKnown(_ address: UInt32, at time: Double) -> Bool {
        var filter = validator.icaoFilter
        return filter.contains(address, at: time)
    }
}
