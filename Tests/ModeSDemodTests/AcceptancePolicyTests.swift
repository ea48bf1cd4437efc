import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct AcceptancePolicyTests {
    let policy = AcceptancePolicy(options: StreamingDemodulator.Options())
    let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
    let outside = AcceptancePolicy.Place(inResidual: false, insideFrame: false)
    let inside = AcceptancePolicy.Place(inResidual: false, insideFrame: true)
    let residualInside = AcceptancePolicy.Place(inResidual: true, insideFrame: true)
    let squitter = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)

    /// Confidences of 1000 for every bit but the listed ones (1-based), which get 10, 20, …
    func confidences(_ count: Int, weak: [Int]) -> [Int32] {
        var scores = [Int32](repeating: 1000, count: count)
        for (index, number) in weak.enumerated() { scores[number - 1] = Int32(10 * (index + 1)) }
        return scores
    }

    func verdict(_ bits: ModeSBits, _ scores: [Int32]) -> RepairGate.Verdict {
        scores.withUnsafeBufferPointer { gate.judge(bits, confidence: $0.baseAddress!) }
    }

    @Test func aClearlyBetterNextStartTakesTheCandidate() {
        #expect(AcceptancePolicy.defersToNextStart(score: 100, nextScore: 113))
        #expect(!AcceptancePolicy.defersToNextStart(score: 100, nextScore: 112))
        #expect(!AcceptancePolicy.defersToNextStart(score: 100, nextScore: nil))
    }

    /// From the sequence slicer an all-call reply only with code 0: a station's code it may
    /// have made up.
    @Test func noStationsCodeFromTheSequenceSlicer() {
        let station = allCall(address: 0x4840D6, code: 4)
        #expect(!policy.usable(station, from: SliceAttempt(rank: 0, slicer: .sequence)))
        #expect(policy.usable(station, from: SliceAttempt(rank: 0, slicer: .plain)))
        #expect(policy.usable(allCall(address: 0x4840D6, code: 0), from: SliceAttempt(rank: 0, slicer: .sequence)))
        #expect(policy.usable(squitter, from: SliceAttempt(rank: 0, slicer: .sequence)))
    }

    /// A sequence decided at the second phase gives only what its whole CRC checks.
    @Test func aSequenceAtTheSecondPhaseGivesOnlyExtendedSquitters() {
        var surveillance = ModeSBits(bitCount: 56)
        surveillance.setField(1, 5, 4)
        let second = SliceAttempt(rank: 1, slicer: .sequence)
        #expect(policy.usable(squitter, from: second))
        #expect(!policy.usable(surveillance, from: second))
        #expect(!policy.usable(allCall(address: 0x4840D6, code: 0), from: second))
        #expect(policy.usable(surveillance, from: SliceAttempt(rank: 0, slicer: .sequence)))
        #expect(policy.usable(surveillance, from: SliceAttempt(rank: 1, slicer: .plain)))
    }

    @Test func weakChecksNeverComeFromInsideAFrameJustDecoded() {
        #expect(policy.passesWindowChecks(.clean, place: inside, looksLikeDataWindow: true, lopsided: true))
        #expect(!policy.passesWindowChecks(.needsJudgement, place: inside, looksLikeDataWindow: false, lopsided: false))
        #expect(
            policy.passesWindowChecks(
                .needsJudgement, place: residualInside, looksLikeDataWindow: false,
                lopsided: false))
        #expect(!policy.passesWindowChecks(.addressParity, place: outside, looksLikeDataWindow: true, lopsided: false))
        #expect(!policy.passesWindowChecks(.addressParity, place: outside, looksLikeDataWindow: false, lopsided: true))
    }

    @Test func measurementsAreOnlyTakenWhenARuleNeedsThem() {
        var measured = 0
        func measure() -> Bool {
            measured += 1
            return false
        }
        _ = policy.passesWindowChecks(.clean, place: outside, looksLikeDataWindow: measure(), lopsided: measure())
        _ = policy.passesWindowChecks(
            .needsJudgement, place: inside, looksLikeDataWindow: measure(),
            lopsided: measure())
        #expect(measured == 0)
        _ = policy.passesWindowChecks(
            .needsJudgement, place: outside, looksLikeDataWindow: measure(),
            lopsided: measure())
        #expect(measured == 2)
    }

    @Test func addressParityRepliesAreRoutedByWhatIsKnownOfTheirParity() {
        #expect(policy.addressParityRoute(.clean, place: outside, seen: false, nearSeen: false) == .asIs)
        #expect(policy.addressParityRoute(.addressParity, place: outside, seen: true, nearSeen: false) == .asIs)
        #expect(policy.addressParityRoute(.addressParity, place: outside, seen: false, nearSeen: true) == .repairOneBit)
        #expect(policy.addressParityRoute(.addressParity, place: outside, seen: false, nearSeen: false) == .reject)
        #expect(policy.addressParityRoute(.addressParity, place: inside, seen: false, nearSeen: true) == .reject)
        var options = StreamingDemodulator.Options()
        options.addressParityRepairs = false
        let strict = AcceptancePolicy(options: options)
        #expect(strict.addressParityRoute(.addressParity, place: outside, seen: false, nearSeen: true) == .reject)
    }

    @Test func firmnessIsAskedOfAddressParityRepliesOnly() {
        #expect(policy.requiresFirmness(.addressParity))
        #expect(!policy.requiresFirmness(.needsJudgement))
        // With synthetic confidences: one weak bit in 56 is firm, eight are not.
        let firm = confidences(56, weak: [30])
        let loose = confidences(56, weak: Array(10...17))
        #expect(firm.withUnsafeBufferPointer { gate.firmEnough($0.baseAddress!, count: 56, typicalScore: 1000) })
        #expect(!loose.withUnsafeBufferPointer { gate.firmEnough($0.baseAddress!, count: 56, typicalScore: 1000) })
    }

    @Test func aRepairIsAdmittedWhenItsBitWasWeak() {
        var damaged = squitter
        damaged.flipBit(61)
        #expect(gate.screen(damaged) == .needsJudgement)
        let weak = verdict(damaged, confidences(112, weak: [61, 20]))
        #expect(policy.admits(weak, isKnown: { _ in false }))
        // A wrong bit ten weaker bits up the order: only for a known aircraft.
        var firm = confidences(112, weak: Array(10...19))
        firm[60] = 900
        let strong = verdict(damaged, firm)
        #expect(!policy.admits(strong, isKnown: { _ in false }))
        #expect(policy.admits(strong, isKnown: { $0 == 0x4840D6 }))
        // No longer among the weakest bits at all: refused.
        let confident = verdict(damaged, confidences(112, weak: Array(6...40)))
        #expect(!policy.admits(confident, isKnown: { _ in true }))
    }

    @Test func coherentDecisionsNeedACleanOrAdmittedRepair() {
        var damaged = squitter
        damaged.flipBit(61)
        #expect(policy.acceptsCoherent(.clean, verdict: .reject, isKnown: { _ in false }))
        #expect(
            policy.acceptsCoherent(
                .needsJudgement, verdict: verdict(damaged, confidences(112, weak: [61])),
                isKnown: { _ in false }))
        #expect(
            !policy.acceptsCoherent(
                .needsJudgement, verdict: verdict(damaged, confidences(112, weak: Array(6...40))),
                isKnown: { _ in true }))
        #expect(!policy.acceptsCoherent(.addressParity, verdict: .admit, isKnown: { _ in true }))
        #expect(policy.triesCoherent(firstSlice: squitter, place: outside))
        #expect(!policy.triesCoherent(firstSlice: squitter, place: inside))
        #expect(!policy.triesCoherent(firstSlice: allCall(address: 1, code: 0), place: outside))
        #expect(!policy.triesCoherent(firstSlice: nil, place: outside))
    }

    @Test func threeBitRepairsAreForKnownLongSquittersOutsideFrames() {
        #expect(policy.triesThreeBitRepair(squitter, place: outside, addressKnown: true))
        #expect(!policy.triesThreeBitRepair(squitter, place: outside, addressKnown: false))
        #expect(!policy.triesThreeBitRepair(squitter, place: inside, addressKnown: true))
        #expect(!policy.triesThreeBitRepair(allCall(address: 0x4840D6, code: 0), place: outside, addressKnown: true))
        #expect(
            policy.acceptsThreeBitRepair(
                repairedAddressKnown: true, looksLikeDataWindow: false, lopsided: false,
                overlapped: false))
        #expect(
            !policy.acceptsThreeBitRepair(
                repairedAddressKnown: false, looksLikeDataWindow: false, lopsided: false,
                overlapped: false))
        #expect(
            !policy.acceptsThreeBitRepair(
                repairedAddressKnown: true, looksLikeDataWindow: true, lopsided: false,
                overlapped: false))
        #expect(
            !policy.acceptsThreeBitRepair(
                repairedAddressKnown: true, looksLikeDataWindow: false, lopsided: false,
                overlapped: true))
    }
}
