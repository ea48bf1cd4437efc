import Testing

@testable import ModeS

@Suite struct SyndromeTableSharingTests {
    @Test func loneErrorSyndromesMatchTheCRCOfEachFlippedBit() {
        for (length, table) in [(56, SyndromeTable.shortLoneErrors), (112, SyndromeTable.longLoneErrors)] {
            #expect(table.count == length + 1)
            for number in [1, 6, 33, length] {
                var bits = ModeSBits(bitCount: length)
                bits.flipBit(number)
                #expect(table[number] == CRC.syndrome(of: bits))
            }
        }
    }

    @Test func sharedTablesRepairLikeFreshlyBuiltOnes() {
        var squitter = ModeSBits(bitCount: 112)
        squitter.setField(1, 5, 17)
        squitter.setField(6, 8, 5)
        squitter.setField(9, 32, 0x4840D6)
        squitter.setField(33, 88, 0x20_2CC3_71C3_2CE0)
        squitter = CRC.withParity(squitter)
        var damaged = squitter
        damaged.flipBit(40)
        damaged.flipBit(77)
        let syndrome = CRC.syndrome(of: damaged)
        let fresh = SyndromeTable(messageBits: 112, maxErrors: 2)
        #expect(SyndromeTable.longTwoBit.correction(for: syndrome) == fresh.correction(for: syndrome))
        #expect(SyndromeTable.longTwoBit.correction(for: syndrome) == SyndromeTable.Correction(first: 40, second: 77))
        var short = ModeSBits(bitCount: 56)
        short.setField(1, 5, 11)
        short = CRC.withParity(short)
        short.flipBit(20)
        #expect(SyndromeTable.shortOneBit.correction(for: CRC.syndrome(of: short))?.first == 20)
    }
}
