import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// `ParityBitmap` answers "maybe" for every value it holds and seldom for others, and the
/// three-bit repair's first look built on it (`RepairGate.threeBitRepairPossible`) lets
/// every three-bit error through.
@Suite(.computeBound) struct ParityBitmapTests {
    @Test func holdsWhatWasInsertedAndLetsFewOthersPast() {
        var generator = SeededGenerator(seed: 5)
        var bitmap = ParityBitmap()
        var inserted = Set<UInt32>()
        for _ in 0..<20_000 {
            let value = UInt32(truncatingIfNeeded: generator.next() & 0xFF_FFFF)
            bitmap.insert(value)
            inserted.insert(value)
        }
        #expect(inserted.allSatisfy { bitmap.mayContain($0) })
        var past = 0
        var others = 0
        while others < 100_000 {
            let value = UInt32(truncatingIfNeeded: generator.next() & 0xFF_FFFF)
            guard !inserted.contains(value) else { continue }
            others += 1
            if bitmap.mayContain(value) { past += 1 }
        }
        // 20,000 values mark about 1 % of the 2^21 bits.
        #expect(past < 2_000, "\(past) of \(others)")
        // Only the low 24 bits count.
        #expect(bitmap.mayContain(inserted.first! | 0x5A00_0000))
    }

    @Test func everyThreeBitErrorMayBeRepairedAndMostOtherSyndromesNot() {
        let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x58_1234_5678_9ABC)
        #expect(!gate.threeBitRepairPossible(ModeSBits(bitCount: 56)))
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            var damaged = squitter
            var flipped = Set<Int>()
            while flipped.count < 3 { flipped.insert(Int(generator.next() % 112) + 1) }
            for bit in flipped { damaged.flipBit(bit) }
            #expect(gate.threeBitRepairPossible(damaged), "bits \(flipped.sorted())")
        }
        // Ten wrong bits leave a syndrome as good as random: about 1 in 70 is one three
        // bits can give, and the bitmap, with a tenth of its bits set, lets about as many
        // again of the others past as that tenth.
        var possible = 0
        for _ in 0..<10_000 {
            var damaged = squitter
            var flipped = Set<Int>()
            while flipped.count < 10 { flipped.insert(Int(generator.next() % 112) + 1) }
            for bit in flipped { damaged.flipBit(bit) }
            if gate.threeBitRepairPossible(damaged) { possible += 1 }
        }
        #expect(possible > 50 && possible < 1_500, "\(possible) of 10,000")
    }
}
