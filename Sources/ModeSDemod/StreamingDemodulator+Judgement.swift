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
        let samples = candidate.samples
        let floor = candidate.floor
        let time = candidate.time
        var bits = sliced
        if sliced.downlinkFormat == 11, sliced.bitCount == 56, CRC.syndrome(of: sliced) == 0 {
            codeZeroReadings.record(address: UInt32(sliced.field(9, 32)), at: candidate.position)
        }
        let screening = repairGate.screen(bits)
        if screening == .reject {
            return threeBitRepaired(bits, attempt: attempt, phase: phase, feedback: feedback, candidate)
        }
        // The route takes two lookups and the window checks measure the samples: an
        // address/parity slice naming no aircraft (most noise) is dropped before measuring.
        let parity = screening == .addressParity ? CRC.syndrome(of: bits) : 0
        let route = policy.addressParityRoute(
            screening, place: candidate.place, seen: seen.mayContain(parity),
            nearSeen: near.mayContain(parity))
        if route == .reject { return nil }
        guard
            policy.passesWindowChecks(
                screening, place: candidate.place,
                looksLikeDataWindow: detector.looksLikeDataWindow(at: samples, phase: phase, floor: floor),
                lopsided: detector.isLopsided(at: samples, phase: phase, floor: floor))
        else { return nil }
        // The all-call repair: an all-call reply with one wrong bit outside its code, from an
        // aircraft already confirmed. Where its code may be wrong too, the channel fit is asked
        // last (below).
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
                        seen.mayContain($0) && isKnown($0, at: time)
                    })
            else { return nil }
            bits.flipBit(number)
        }
        if policy.requiresFirmness(screening) {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            // The clipping is read from the raw samples, kept only for cancellation.
            let readsClipping = options.cancelOverlaps && policy.readsClipping(attempt: attempt, place: candidate.place)
            let raw = rawSamples(at: candidate.position)
            guard
                repairGate.firmEnough(
                    confidence, count: bits.bitCount,
                    typicalScore: typicalScore(attempt, samples, phase: phase, floor: floor),
                    decidedAtRails: {
                        readsClipping
                            && clippedBits.decides(bits, bit: $0 + 1, phase: phase, raw: raw, magnitudes: samples)
                    })
            else { return nil }
        }
        if screening == .addressParity, !AcceptancePolicy.agreesWithSquitters(bits, reports: squitterReports, at: time)
        {
            statistics.squitterMismatches += 1
            return nil
        }
        // The aircraft's own standing of this code, looked up at most once (the all-call test and
        // the unambiguous-code test).
        var standing: AddressCodes.Standing?
        func ownCode() -> AddressCodes.Standing {
            if let known = standing { return known }
            let looked = addressCodes.standing(
                of: AcceptancePolicy.interrogatorCode(of: bits),
                address: UInt32(bits.field(9, 32)), at: time)
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
        guard
            policy.acceptsAllCall(
                bits, attempt: attempt,
                overlapped: interference.overlapped(
                    bits, samples, phase: phase, floor: floor,
                    onlyFrom: AcceptancePolicy.overlapMattersFrom(bits)),
                followedClosely: interference.followedClosely(samples, phase: phase, floor: floor),
                codeBelievable: interference.nonZeroCodeBelievable(bits, samples, phase: phase, floor: floor),
                plainAgrees: interference.plainAgreesOnCode(bits, samples, phase: phase),
                fitsCleanly: fitsCleanly(bits, samples, phase: phase, floor: floor),
                codeDecided: channelFitSlicer.codeBitsDecided(bitCount: bits.bitCount),
                codeClipped: channelFitSlicer.codeClipped(bitCount: bits.bitCount),
                codeUnderCancelledFrame: cancelledFrame.overlaps(
                    (candidate.position + kernels.firstSample(ofBit: bits.bitCount - 6))..<(candidate.position
                        + kernels.span(bitCount: bits.bitCount))),
                confirmedByChannelFit: channelFitConfirms(bits, candidate, phase: phase, fitted: fitted),
                fitAgreesBelowSixFloors: !stands(6, floorsAbove: floor, samples, phase: phase)
                    && channelFitAgrees(bits, attempt: attempt, fitted: fitted),
                clearOfNoise: !canFit(candidate) || stands(4, floorsAbove: floor, samples, phase: phase),
                ownCode: ownCode())
        else { return nil }
        if bits.downlinkFormat == 11 {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            // The channel fit's confidences are on its own scale, which floors do not measure.
            let firm =
                AcceptancePolicy.interrogatorCode(of: bits) == 0 && attempt.slicer != .channelFit
                ? RepairGate.squitterFirmScore(floor: floor, bitScale: kernels.bitScale) : .max
            let (weak, overstated) = repairGate.codeBits(confidence, count: bits.bitCount, firm: firm)
            // Near the noise, a weak bit of a station's code is weighed only when the channel
            // fit decides the same code, and below six floors the fit's agreement settles a
            // doubt of code 0 (see `codeUnambiguous`).
            guard
                policy.codeUnambiguous(
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
                    believed: { interrogators.believes($0, at: time) })
            else { return nil }
            guard
                policy.codeStandsAgainstChannelFit(
                    bits, attempt: attempt, place: candidate.place,
                    strong: stands(6, floorsAbove: floor, samples, phase: phase),
                    fitted: fitted)
            else {
                statistics.codesOverruledByChannelFit += 1
                return nil
            }
            // The code-0 reading test and the feedback-code test: doubts that the code might be 0
            // after all.
            let interrogatorCode = AcceptancePolicy.interrogatorCode(of: bits)
            guard
                policy.stationCodeStands(
                    interrogatorCode,
                    codeZeroNearby: codeZeroReadings.contains(
                        address: UInt32(bits.field(9, 32)), near: candidate.position,
                        reach: AcceptancePolicy.codeZeroReach)),
                policy.feedbackCodeStands(
                    interrogatorCode, attempt: attempt,
                    plainWeak: {
                        slicer.confidence(samples, phase: phase, feedback: 0, bitCount: bits.bitCount, into: confidence)
                        return repairGate.codeBits(confidence, count: bits.bitCount).weak
                    },
                    fitAgrees: channelFitAgrees(bits, attempt: attempt, fitted: fitted))
            else { return nil }
        } else if screening == .needsJudgement {
            measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
            guard
                policy.admits(repairGate.judge(bits, confidence: confidence), isKnown: { isKnown($0, at: time) })
                    || repairsCollision(bits, phase: phase, candidate)
            else { return nil }
            guard
                AcceptancePolicy.smallRepairAgreesWithSquitters(
                    bits, fix: repairGate.repair(of: bits),
                    clearOfNoise: stands(4, floorsAbove: floor, samples, phase: phase),
                    reports: squitterReports, at: time)
            else {
                statistics.squitterMismatches += 1
                return nil
            }
        }
        // The all-call repair, last: the channel fit's word on a repaired reply's code, where it
        // may be wrong too (its run shared with the all-call test and the channel-fit recheck).
        if repairedBits > 0,
            policy.allCallRepairNeedsChannelFit(
                stationCode: AcceptancePolicy.interrogatorCode(of: bits) != 0, attempt: attempt,
                strong: stands(6, floorsAbove: floor, samples, phase: phase)),
            fitted()?.field(AcceptancePolicy.firstCodeBit, 56) != bits.field(AcceptancePolicy.firstCodeBit, 56)
        {
            return nil
        }
        // Whether the address was known before this reply (validating a DF11 confirms it).
        let code = policy.codeToVouchFor(bits)
        let knownBefore =
            code != nil
            && policy.codeOfKnownAddressBelieved(
                attempt: attempt,
                addressKnown: isKnown(UInt32(bits.field(9, 32)), at: time),
                codeFirm: codeFirm(bits, samples: samples, phase: phase, feedback: feedback, floor: floor))
        // Vouched for before validating: validating a DF11 confirms its address, which must
        // not happen for a reply whose code is then refused (a later attempt at the same
        // reply would find its address known and believe the code on that alone).
        if let code, !interrogators.vouch(code, address: UInt32(bits.field(9, 32)), time: time), !knownBefore {
            return nil
        }
        guard var frame = validator.validate(bits, time: time) else { return nil }
        if bits.downlinkFormat == 11 {
            addressCodes.record(
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
    private func measureConfidence(
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

    /// Whether the one- or two-bit repair of the DF17/18 `bits` (sliced at `phase`), refused
    /// for its firm bits, is believed as a collision (the collision repair,
    /// `AcceptancePolicy.admitsCollisionRepair`); counts it when it is.
    private func repairsCollision(_ bits: ModeSBits, phase: Int, _ candidate: Candidate) -> Bool {
        guard let fix = repairGate.repair(of: bits) else { return false }
        let samples = candidate.samples
        var repaired = bits
        repaired.flipBit(fix.first)
        if fix.second > 0 { repaired.flipBit(fix.second) }
        // Half the reply's pulse level above the floor.
        let limit = (detector.pulseAmplitude(at: samples, phase: phase) + Double(candidate.floor)) / 2
        func loud(_ bit: Int) -> Bool { slicer.bothChipsLoud(bit - 1, samples, phase: phase, limit: limit) }
        guard limit > Double(candidate.floor),
            policy.admitsCollisionRepair(
                repairedBitsBothLoud: loud(fix.first) && (fix.second == 0 || loud(fix.second)),
                twoBits: fix.second > 0,
                bothLoudCount: slicer.bothChipsLoudCount(
                    bits.bitCount, samples, phase: phase, limit: limit,
                    enough: AcceptancePolicy.maximumCollisionBits),
                addressKnown: isKnown(UInt32(repaired.field(9, 32)), at: candidate.time),
                agreesWithSquitters: AcceptancePolicy.repairAgreesWithSquitters(
                    repaired, reports: squitterReports,
                    at: candidate.time))
        else { return false }
        statistics.collisionRepairs += 1
        return true
    }

    /// The three-bit repair of bits that the one- and two-bit tables cannot explain
    /// (see `RepairGate.threeBitRepair`), or nil when the policy does not allow or believe it.
    private func threeBitRepaired(
        _ bits: ModeSBits, attempt: SliceAttempt, phase: Int, feedback: Int32,
        _ candidate: Candidate
    ) -> Frame? {
        let samples = candidate.samples
        guard
            policy.triesThreeBitRepair(
                bits, place: candidate.place,
                addressKnown: isKnown(UInt32(bits.field(9, 32)), at: candidate.time)),
            repairGate.threeBitRepairPossible(bits)
        else { return nil }
        measureConfidence(attempt, bits, samples, phase: phase, feedback: feedback)
        guard let repaired = repairGate.threeBitRepair(bits, confidence: confidence) else { return nil }
        let address = UInt32(repaired.field(9, 32))
        // A stronger reply on top: a sample beyond what this reply and one as strong could
        // make. A weak reply is measured as if four floors above the floor, since noise
        // alone reaches twice its level.
        let level = max(
            4 * Double(candidate.floor),
            detector.pulseAmplitude(at: samples, phase: phase) - Double(candidate.floor))
        guard
            policy.acceptsThreeBitRepair(
                repairedAddressKnown: isKnown(address, at: candidate.time),
                looksLikeDataWindow: detector.looksLikeDataWindow(at: samples, phase: phase, floor: candidate.floor),
                lopsided: detector.isLopsided(at: samples, phase: phase, floor: candidate.floor),
                overlapped: interference.louderThanTwoReplies(
                    samples, bitCount: repaired.bitCount, level: level,
                    floor: candidate.floor))
        else { return nil }
        guard AcceptancePolicy.repairAgreesWithSquitters(repaired, reports: squitterReports, at: candidate.time) else {
            statistics.squitterMismatches += 1
            return nil
        }
        return Frame(bits: repaired, address: address, correctedBits: 3)
    }

    /// Whether `address` was confirmed by a clean CRC recently (without touching the
    /// validator's own filter).
    func isKnown(_ address: UInt32, at time: Double) -> Bool {
        var filter = validator.icaoFilter
        return filter.contains(address, at: time)
    }
}
