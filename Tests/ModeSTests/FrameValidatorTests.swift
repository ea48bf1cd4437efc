import Testing

@testable import ModeS

@Suite struct FrameValidatorTests {
    let clean = ModeSBits(hex: "8D406B902015A678D4D220AA4BDA")!

    @Test func everySingleBitErrorIsRepaired() throws {
        var validator = FrameValidator()
        for number in 6...112 {
            var damaged = clean
            damaged.flipBit(number)
            let result = validator.validate(damaged, time: 0)
            let frame = try #require(result, "bit \(number)")
            #expect(frame.bits == clean)
            #expect(frame.correctedBits == 1)
        }
    }

    @Test func twoBitErrorsAreRepairedOnlyWhenAllowed() throws {
        var damaged = clean
        damaged.flipBit(40)
        damaged.flipBit(77)
        var validator = FrameValidator()
        let result = validator.validate(damaged, time: 0)
        let frame = try #require(result)
        #expect(frame.bits == clean)
        #expect(frame.correctedBits == 2)
        var strict = FrameValidator(allowTwoBitCorrection: false)
        let strictResult = strict.validate(damaged, time: 0)
        #expect(strictResult == nil)
    }

    @Test func downlinkFormatBitsAreNeverRepaired() {
        var damaged = clean
        damaged.flipBit(3)
        var validator = FrameValidator()
        let result = validator.validate(damaged, time: 0)
        #expect(result == nil)
    }

    @Test func addressParityNeedsAConfirmedAddress() throws {
        var reply = ModeSBits(bitCount: 56)
        reply.setField(1, 5, 4)
        reply.setField(20, 32, 0x0C10)
        reply = CRC.withParity(reply, overlay: 0x406B90)
        var validator = FrameValidator(filterExpiry: 60)
        let before = validator.validate(reply, time: 0)
        #expect(before == nil)
        _ = validator.validate(clean, time: 1)
        let after = validator.validate(reply, time: 2)
        #expect(after?.address == 0x406B90)
        // Forgotten once two expiry periods have passed without a confirmation.
        let muchLater = validator.validate(reply, time: 200)
        #expect(muchLater == nil)
    }

    @Test func repairedShortMessagesNeedAKnownAddress() {
        var validator = FrameValidator()
        var allCall = ModeSBits(bitCount: 56)
        allCall.setField(1, 5, 11)
        allCall.setField(9, 32, 0x3C6589)
        allCall = CRC.withParity(allCall)
        var damaged = allCall
        damaged.flipBit(20)
        let unknown = validator.validate(damaged, time: 0)
        #expect(unknown == nil)
        let genuine = validator.validate(allCall, time: 1)
        #expect(genuine?.correctedBits == 0)
        let repaired = validator.validate(damaged, time: 2)
        #expect(repaired?.bits == allCall)
    }
}
