import ModeS
import Testing

@testable import Simulator

/// Altitude, identity and callsign codes against independent hand decoders and known values.
@Suite struct FieldCodeTests {
    /// Decodes the Gillham pulses of a 13-bit ID-order field (written from the code's
    /// definition: a Gray-coded 500 ft count and a reflected 100 ft count).
    static func decodeGillham(_ field: UInt64) -> Int? {
        func bit(_ shift: Int) -> Int { Int((field >> UInt64(shift)) & 1) }
        let c1 = bit(12)
        let a1 = bit(11)
        let c2 = bit(10)
        let a2 = bit(9)
        let c4 = bit(8)
        let a4 = bit(7)
        let b1 = bit(5)
        let b2 = bit(3)
        let d2 = bit(2)
        let b4 = bit(1)
        let d4 = bit(0)
        let gray = [d2, d4, a1, a2, a4, b1, b2, b4]
        var five = 0
        var acc = 0
        for g in gray {
            acc ^= g
            five = five << 1 | acc
        }
        var ones = 0
        acc = 0
        for g in [c1, c2, c4] {
            acc ^= g
            ones = ones << 1 | acc
        }
        if ones == 7 { ones = 5 } else if ones == 5 || ones == 0 || ones == 6 { return nil }
        if five % 2 == 1 { ones = 6 - ones }
        return five * 500 + ones * 100 - 1300
    }

    @Test func gillhamRoundTripsEveryHundredFeet() {
        for altitude in stride(from: -1200, through: 126_700, by: 100) {
            let field = AltitudeCode.gillhamPulses(altitude)
            #expect(field.flatMap(Self.decodeGillham) == altitude, "altitude \(altitude)")
        }
        #expect(AltitudeCode.gillhamPulses(-1300) == nil)
    }

    @Test func twentyFiveFootCodeRoundTrips() {
        for altitude in stride(from: -1000, through: 50_175, by: 25) {
            let ac = AltitudeCode.acField(altitude)!
            #expect((ac >> 6) & 1 == 0)  // M: feet
            #expect((ac >> 4) & 1 == 1)  // Q: 25 ft
            let n = (ac >> 7) << 5 | ((ac >> 5) & 1) << 4 | (ac & 0xF)
            #expect(Int(n) * 25 - 1000 == altitude)
            let twelve = AltitudeCode.positionField(altitude)!
            let n12 = (twelve >> 5) << 4 | (twelve & 0xF)
            #expect(n12 == n)
        }
        // Above the 25 ft range the code falls back to Gillham (Q = 0).
        let high = AltitudeCode.acField(60_000)!
        #expect((high >> 4) & 1 == 0)
        #expect(Self.decodeGillham(high) == 60_000)
    }

    @Test func identityCodeKnownValues() {
        #expect(IdentityCode.encode(squawk: "0000").map(UInt64.init) == 0)
        #expect(IdentityCode.encode(squawk: "7700").map(UInt64.init) == 0xAAA)
        #expect(IdentityCode.encode(squawk: "1200").map(UInt64.init) == 0x808)
        #expect(IdentityCode.encode(squawk: "0007").map(UInt64.init) == 0x15)
        #expect(IdentityCode.encode(squawk: "0070").map(UInt64.init) == 0x1500)
        #expect(IdentityCode.encode(squawk: "8000").map(UInt64.init) == nil)
        #expect(IdentityCode.encode(squawk: "123").map(UInt64.init) == nil)
    }

    @Test func callsignCharacters() {
        #expect(CallsignCode.field("        ") == 0x8208_2082_0820)
        #expect(CallsignCode.field("A") >> 42 == 1)
        #expect(CallsignCode.field("09") >> 36 == 48 << 6 | 57)
    }

    @Test func movementCodeBins() {
        #expect(ExtendedSquitterEncoder.movementCode(0) == 1)
        #expect(ExtendedSquitterEncoder.movementCode(0.125) == 2)
        #expect(ExtendedSquitterEncoder.movementCode(1) == 9)
        #expect(ExtendedSquitterEncoder.movementCode(2) == 13)
        #expect(ExtendedSquitterEncoder.movementCode(15) == 39)
        #expect(ExtendedSquitterEncoder.movementCode(70) == 94)
        #expect(ExtendedSquitterEncoder.movementCode(100) == 109)
        #expect(ExtendedSquitterEncoder.movementCode(174.9) == 123)
        #expect(ExtendedSquitterEncoder.movementCode(200) == 124)
    }
}
