import Testing

@testable import ModeS

@Suite struct CRCTests {
    @Test func cleanExtendedSquitterHasZeroSyndrome() throws {
        let bits = try #require(ModeSBits(hex: "8D406B902015A678D4D220AA4BDA"))
        #expect(CRC.syndrome(of: bits) == 0)
        #expect(bits.downlinkFormat == 17)
        #expect(bits.field(9, 32) == 0x406B90)
    }

    @Test func addressParityYieldsTheAddress() throws {
        // A DF20 reply from the shared corpus whose address column says 484CB8.
        let bits = try #require(ModeSBits(hex: "A0000638B699F11BE3846DCA35F9"))
        #expect(CRC.syndrome(of: bits) == 0x484CB8)
    }

    @Test func hexRoundTrips() throws {
        let hex = "8D4840D6202CC371C32CE0576098"
        #expect(ModeSBits(hex: hex)?.hex == hex)
        #expect(ModeSBits(hex: hex.lowercased())?.hex == hex)
        #expect(ModeSBits(hex: "8D4840D6202CC371C32CE05760") == nil)
        #expect(ModeSBits(hex: "8D4840D6202CC371C32CE057609G") == nil)
    }

    @Test func withParityProducesValidMessages() throws {
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 4)
        bits.setField(20, 32, 0x1234)
        let overlaid = CRC.withParity(bits, overlay: 0xABCDEF)
        #expect(CRC.syndrome(of: overlaid) == 0xABCDEF)
    }
}
