import Testing

@testable import ModeS

@Suite struct AltitudeCodeTests {
    /// DF4 surveillance replies with Gillham (Q = 0) altitude codes and the altitude pyModeS
    /// 3.6.1 decodes for each: an independent implementation of the same table.
    @Test(arguments: [
        ("20000100000000", -1200), ("20000381000000", 54700), ("20000502000000", -400),
        ("20000683000000", 54000), ("20000904000000", 94800), ("20000B85000000", 86700),
        ("20000D06000000", 95600), ("20000E87000000", 86000), ("20001008000000", 300),
        ("20001289000000", 53200), ("2000160A000000", 13400), ("2000188B000000", 37300),
        ("20001C0C000000", 96400), ("20001E8D000000", 85100)
    ])
    func gillhamCodes(hex: String, feet: Int) throws {
        let bits = try #require(ModeSBits(hex: hex))
        #expect(AltitudeCode.decode13(UInt32(bits.field(20, 32)))?.feet == feet)
    }

    @Test func invalidGillhamHundredsAreRejected() {
        // C1 C2 C4 = 1 1 1 is not one of the five states of the 100 ft code.
        #expect(AltitudeCode.decode13(0x1500) == nil)
        #expect(AltitudeCode.decode13(0) == nil)
    }

    @Test func twentyFiveFootSteps() throws {
        // A DF4 reply at 36,000 ft (Q = 1) and an ADS-B position at 38,000 ft.
        let reply = try #require(ModeSBits(hex: "20001718029FCD"))
        #expect(AltitudeCode.decode13(UInt32(reply.field(20, 32)))?.feet == 36_000)
        let position = try #require(ModeSBits(hex: "8D40621D58C382D690C8AC2863A7"))
        #expect(AltitudeCode.decode12(UInt32(position.field(41, 52))) == 38_000)
    }

    @Test func encodingRoundTrips() throws {
        for feet in stride(from: -1000, through: 50_175, by: 25) {
            let thirteen = try #require(AltitudeCode.acField(feet))
            #expect(AltitudeCode.decode13(UInt32(thirteen))?.feet == feet)
            let twelve = try #require(AltitudeCode.positionField(feet))
            #expect(AltitudeCode.decode12(UInt32(twelve)) == feet)
        }
        #expect(AltitudeCode.count25ft(-1025) == nil)
    }

    @Test func metricFlagIsReported() {
        // M bit (0x40) set: the other twelve bits, 0x80 >> 1 | 0x24 = 100, are metres.
        let decoded = AltitudeCode.decode13(0x80 | 0x40 | 0x24)
        #expect(decoded?.metric == true)
        #expect(decoded?.feet == 328)
    }
}

@Suite struct IdentityCodeTests {
    @Test func squawkFromReply() throws {
        let reply = try #require(ModeSBits(hex: "28001A1B5B4A1C"))
        #expect(IdentityCode.squawk(UInt32(reply.field(20, 32))) == "3615")
    }

    @Test func everySquawkRoundTrips() throws {
        for value in 0..<4096 {
            let squawk = String(value, radix: 8)
            let padded = String(repeating: "0", count: 4 - squawk.count) + squawk
            let field = try #require(IdentityCode.encode(squawk: padded))
            #expect(IdentityCode.squawk(field) == padded)
        }
        #expect(IdentityCode.encode(squawk: "7800") == nil)
        #expect(IdentityCode.encode(squawk: "770") == nil)
    }
}
