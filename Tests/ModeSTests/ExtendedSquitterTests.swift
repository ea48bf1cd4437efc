import Testing

@testable import ModeS

/// Decodes one message that is known to be genuine.
func decoded(_ hex: String) throws -> Message {
    let bits = try #require(ModeSBits(hex: hex))
    var validator = FrameValidator(trustAddressParity: true)
    let result = validator.validate(bits, time: 0)
    let frame = try #require(result)
    return MessageDecoder().decode(frame)
}

@Suite struct ExtendedSquitterTests {
    @Test func identification() throws {
        let message = try decoded("8D4840D6202CC371C32CE0576098")
        #expect(message.icaoHex == "4840d6")
        #expect(message.typeCode == 4)
        #expect(message.callsign == "KLM1023")
        #expect(message.category == "A0")
        #expect(message.crcOK == true)
    }

    @Test func airbornePosition() throws {
        let message = try decoded("8D40621D58C382D690C8AC2863A7")
        #expect(message.altitudeBaroFt == 38_000)
        #expect(message.cpr == CPRFrame(isOdd: false, isSurface: false, lat: 93_000, lon: 51_372))
        #expect(message.onGround == false)
    }

    @Test func groundSpeedVelocity() throws {
        let message = try decoded("8D485020994409940838175B284F")
        #expect(message.velocitySubtype == 1)
        #expect(abs(try #require(message.groundSpeedKt) - 159.20) < 0.01)
        #expect(abs(try #require(message.trackDeg) - 182.88) < 0.01)
        #expect(message.verticalRateFpm == -832)
        #expect(message.verticalRateSource == .gnss)
        #expect(message.geoMinusBaroFt == 550)
    }

    @Test func airspeedVelocity() throws {
        let message = try decoded("8DA05F219B06B6AF189400CBC33F")
        #expect(message.velocitySubtype == 3)
        #expect(abs(try #require(message.headingDeg) - 243.98) < 0.01)
        #expect(message.airspeedKt == 375)
        #expect(message.airspeedType == .tas)
        #expect(message.verticalRateFpm == -2304)
        #expect(message.verticalRateSource == .baro)
    }

    @Test func surfacePosition() throws {
        let message = try decoded("8C4841753AAB238733C8CD4020B1")
        #expect(message.typeCode == 7)
        #expect(message.onGround == true)
        #expect(message.groundSpeedKt == 18)
        #expect(message.trackDeg == 140.625)
        #expect(message.cpr == CPRFrame(isOdd: false, isSurface: true, lat: 115_609, lon: 116_941))
    }

    @Test func surfaceMovementScale() {
        #expect(ExtendedSquitter.groundMovement(0) == nil)
        #expect(ExtendedSquitter.groundMovement(1) == 0)
        #expect(ExtendedSquitter.groundMovement(9) == 1)
        #expect(ExtendedSquitter.groundMovement(13) == 2)
        #expect(ExtendedSquitter.groundMovement(39) == 15)
        #expect(ExtendedSquitter.groundMovement(94) == 70)
        #expect(ExtendedSquitter.groundMovement(109) == 100)
        #expect(ExtendedSquitter.groundMovement(124) == 175)
        #expect(ExtendedSquitter.groundMovement(125) == nil)
    }

    @Test func emergencyStatusAndReplies() throws {
        // Built field by field: TC28 subtype 1, emergency 1 (general), squawk 7700.
        var bits = ModeSBits(bitCount: 112)
        bits.setField(1, 5, 17)
        bits.setField(6, 8, 5)
        bits.setField(9, 32, 0xABCDEF)
        bits.setField(33, 37, 28)
        bits.setField(38, 40, 1)
        bits.setField(41, 43, 1)
        bits.setField(44, 56, UInt64(try #require(IdentityCode.encode(squawk: "7700"))))
        let message = try decoded(CRC.withParity(bits).hex)
        #expect(message.emergency == 1)
        #expect(message.squawk == "7700")
    }

    @Test func targetStateAndStatus() throws {
        // TC29 subtype 1: MCP altitude 36,000 ft ((1126 - 1) × 32), QNH 1013.6 hPa, heading 90°.
        var bits = ModeSBits(bitCount: 112)
        bits.setField(1, 5, 17)
        bits.setField(6, 8, 5)
        bits.setField(9, 32, 0x123456)
        bits.setField(33, 37, 29)
        bits.setField(38, 39, 1)
        bits.setField(42, 52, 1126)
        bits.setField(53, 61, 268)
        bits.setField(62, 62, 1)
        bits.setField(63, 71, 128)
        bits.setField(72, 75, 9)
        let message = try decoded(CRC.withParity(bits).hex)
        #expect(message.selectedAltitudeFt == 36_000)
        #expect(message.selectedAltitudeSource == "mcp")
        #expect(abs(try #require(message.baroSettingHpa) - 1013.6) < 0.01)
        #expect(message.selectedHeadingDeg == 90)
        #expect(message.nacP == 9)
    }

    @Test func surveillanceRepliesAndAllCall() throws {
        let altitudeReply = try decoded("20001718029FCD")
        #expect(altitudeReply.df == 4)
        #expect(altitudeReply.icaoHex == "4891a6")
        #expect(altitudeReply.altitudeBaroFt == 36_000)
        #expect(altitudeReply.flightStatus == 0)
        #expect(altitudeReply.onGround == false)
        #expect(altitudeReply.crcOK == nil)
        let identityReply = try decoded("28001A1B5B4A1C")
        #expect(identityReply.squawk == "3615")
        #expect(identityReply.icaoHex == "08e574")
        var allCall = ModeSBits(bitCount: 56)
        allCall.setField(1, 5, 11)
        allCall.setField(6, 8, 5)
        allCall.setField(9, 32, 0x4840D6)
        let reply = try decoded(CRC.withParity(allCall, overlay: 0x12).hex)
        #expect(reply.df == 11)
        #expect(reply.icaoHex == "4840d6")
        #expect(reply.interrogator == 0x12)
        #expect(reply.capability == 5)
    }
}
