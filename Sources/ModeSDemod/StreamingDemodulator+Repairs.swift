import ModeS

/// The repairs of squitters that the screening alone does not settle: the three-bit repair
/// of bits no one- or two-bit repair explains, and the collision repair of bits the
/// confidences say were decided too firmly for noise, with the measurements their tests ask
/// for.
extension StreamingDemodulator {
    /// Whether the one- or two-bit repair of the DF17/18 `bits` (sliced at `phase`), refused
    /// for its firm bits, is believed as a collision (the collision repair,
    /// `AcceptancePolicy.admitsCollisionRepair`); counts it when it is.
    func repairsCollision(_ bits: ModeSBits, phase: Int, _ candidate: Candidate) -> Bool {
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
                    repaired, reports: heard.squitterReports,
                    at: candidate.time))
        else { return false }
        statistics.collisionRepairs += 1
        return true
    }

    /// The three-bit repair of bits that the one- and two-bit tables cannot explain
    /// (see `RepairGate.threeBitRepair`), or nil when the policy does not allow or believe it.
    func threeBitRepaired(
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
        guard AcceptancePolicy.repairAgreesWithSquitters(repaired, reports: heard.squitterReports, at: candidate.time)
        else {
            statistics.squitterMismatches += 1
            return nil
        }
        return Frame(bits: repaired, address: address, correctedBits: 3)
    }
}
