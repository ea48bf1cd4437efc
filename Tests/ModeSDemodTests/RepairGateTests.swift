import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct ThreeBitRepairTests {
    let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
    let original = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)

    /// Confidences of 1000 for every bit but the listed ones (1-based), which get 10, 20, …
    func confidences(weak: [Int]) -> [Int32] {
        var scores = [Int32](repeating: 1000, count: 112)
        for (index, number) in weak.enumerated() { scores[number - 1] = Int32(10 * (index + 1)) }
        return scores
    }

    @Test func theLeastConfidentBitsComeWeakestFirst() {
        // Bits 40, 7, 90 and 3 weakest in that order; bit 3 lies outside the range asked.
        var scores = confidences(weak: [40, 7, 90, 3])
        scores[60] = 20  // bit 61 ties with bit 7: the earlier bit comes first
        var slots = [Int](repeating: 0, count: 3)
        let taken = scores.withUnsafeBufferPointer { confidence in
            slots.withUnsafeMutableBufferPointer {
                RepairGate.leastConfident(confidence.baseAddress!, bits: 6...112, into: $0)
            }
        }
        #expect(taken == 3)
        #expect(slots == [40, 7, 61])
        // Fewer bits than slots: all of them.
        var many = [Int](repeating: 0, count: 8)
        let all = scores.withUnsafeBufferPointer { confidence in
            many.withUnsafeMutableBufferPointer {
                RepairGate.leastConfident(confidence.baseAddress!, bits: 88...92, into: $0)
            }
        }
        #expect(all == 5)
        #expect(many.prefix(5) == [90, 88, 89, 91, 92])
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

@Suite(.computeBound) struct AddressParityRepairTests {
    let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)

    /// A DF20 (Comm-B altitude reply) from `address`: its parity is the CRC with the
    /// address laid over it.
    func reply(address: UInt32) -> ModeSBits {
        var bits = ModeSBits(bitCount: 112)
        bits.setField(1, 5, 20)
        bits.setField(20, 32, 0x1A2B)
        bits.setField(33, 88, 0x20_2CC3_71C3_2CE0)
        let parity = CRC.syndrome(of: bits) ^ address
        bits.setField(89, 112, UInt64(parity))
        return bits
    }

    func confidences(weak: [Int]) -> [Int32] {
        var scores = [Int32](repeating: 1000, count: 112)
        for (index, number) in weak.enumerated() { scores[number - 1] = Int32(10 * (index + 1)) }
        return scores
    }

    @Test func aWeakWrongBitOfAKnownAircraftIsRepaired() {
        let original = reply(address: 0x4840D6)
        #expect(CRC.syndrome(of: original) == 0x4840D6)
        var damaged = original
        damaged.flipBit(47)
        let scores = confidences(weak: [70, 47, 12])
        let number = scores.withUnsafeBufferPointer {
            gate.addressParityRepair(damaged, confidence: $0.baseAddress!, isKnown: { $0 == 0x4840D6 })
        }
        #expect(number == 47)
    }

    @Test func anUnknownAircraftOrAFirmBitIsNotRepaired() {
        var damaged = reply(address: 0x4840D6)
        damaged.flipBit(47)
        let weak = confidences(weak: [70, 47, 12])
        let unknown = weak.withUnsafeBufferPointer {
            gate.addressParityRepair(damaged, confidence: $0.baseAddress!, isKnown: { $0 == 0x3C6589 })
        }
        #expect(unknown == nil)
        let firm = confidences(weak: [70, 12, 90, 33, 101, 64, 8])
        let notWeak = firm.withUnsafeBufferPointer {
            gate.addressParityRepair(damaged, confidence: $0.baseAddress!, isKnown: { $0 == 0x4840D6 })
        }
        #expect(notWeak == nil)
    }

    @Test func nearAddressesMarksEveryOneBitNeighbour() {
        var near = NearAddresses()
        near.insert(0x4840D6)
        for number in [6, 33, 47, 112] {
            var damaged = reply(address: 0x4840D6)
            damaged.flipBit(number)
            #expect(near.mayContain(CRC.syndrome(of: damaged)), "bit \(number)")
        }
    }
}
