import Testing
@testable import ModeS

@Suite struct ThreeBitRepairTests {
    let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
    let original = TestSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)

    /// Confidences of 1000 for every bit but the listed ones (1-based), which get 10, 20, …
    func confidences(weak: [Int]) -> [Int32] {
        var scores = [Int32](repeating: 1000, count: 112)
        for (index, number) in weak.enumerated() { scores[number - 1] = Int32(10 * (index + 1)) }
        return scores
    }

    @Test func threeWeakWrongBitsAreRepaired() {
        var damaged = original
        for number in [20, 61, 99] { damaged.flipBit(number) }
        let scores = confidences(weak: [61, 20, 99, 44, 70])
        let repaired = scores.withUnsafeBufferPointer { gate.threeBitRepair(damaged, confidence: $0.baseAddress!) }
        #expect(repaired == original)
    }

    @Test func aConfidentWrongBitIsNotRepaired() {
        var damaged = original
        for number in [20, 61, 99] { damaged.flipBit(number) }
        // Bit 99 was decided firmly: the damage is not the kind noise does.
        var scores = confidences(weak: [61, 20, 44, 70])
        for number in 6...112 where ![61, 20, 44, 70].contains(number) { scores[number - 1] = Int32(2000 + number) }
        let repaired = scores.withUnsafeBufferPointer { gate.threeBitRepair(damaged, confidence: $0.baseAddress!) }
        #expect(repaired == nil)
    }

    @Test func fourWrongBitsAreNotMadeIntoAnotherMessage() {
        // Four errors among the weakest bits: any three-bit "repair" would be a different
        // message; the repair must find none, or at least not claim the original.
        var damaged = original
        for number in [20, 44, 61, 99] { damaged.flipBit(number) }
        let scores = confidences(weak: [61, 20, 99, 44, 70])
        let repaired = scores.withUnsafeBufferPointer { gate.threeBitRepair(damaged, confidence: $0.baseAddress!) }
        #expect(repaired == nil)
    }
}
