import Foundation
import TestSupport
import Testing

@testable import ModeS

/// The decoder over the real message corpora in ../shared/messages.
@Suite(.requires(.shared("messages"))) struct CorpusTests {
    @Test func everyExtendedSquitterChecksAndMatchesItsColumns() throws {
        guard let lines = try SharedData.lines("messages/sample_data_adsb.csv") else { return }
        var validator = FrameValidator()
        let decoder = MessageDecoder()
        var count = 0
        for line in lines {
            let columns = line.split(separator: ",").map { $0.replacingOccurrences(of: "\"", with: "") }
            let bits = try #require(ModeSBits(hex: columns[1]))
            let result = validator.validate(bits, time: Double(columns[0]) ?? 0)
            let frame = try #require(result, "\(columns[1]) failed its CRC")
            #expect(frame.correctedBits == 0)
            let message = decoder.decode(frame)
            #expect(message.icaoHex == columns[2].lowercased())
            #expect(message.typeCode == Int(columns[3]))
            count += 1
        }
        #expect(count == 2000)
    }

    @Test(arguments: ["messages/sample_data_commb_df20.csv", "messages/sample_data_commb_df21.csv"])
    func commBAddressesAreRecoveredFromParity(path: String) throws {
        guard let lines = try SharedData.lines(path) else { return }
        var validator = FrameValidator(trustAddressParity: true)
        let decoder = MessageDecoder()
        var identified = 0
        var mismatched = 0
        for line in lines {
            let columns = line.split(separator: ",")
            let bits = try #require(ModeSBits(hex: columns[2]))
            let result = validator.validate(bits, time: 0)
            let message = decoder.decode(try #require(result))
            if message.icaoHex != columns[1].lowercased() { mismatched += 1 }
            #expect(message.crcOK == nil, "an unconfirmed address/parity reply is not verified")
            if message.bds != nil { identified += 1 }
        }
        #expect(lines.count == 5000)
        // A handful of the recorded replies were damaged on air (their parity no longer yields
        // the address the corpus lists); every other one must give exactly that address.
        #expect(mismatched <= 5)
        // Most Comm-B replies carry one of the registers identified.
        #expect(identified > 4000)
    }

    /// The reference values of golden_v2.json (another decoder's output): for every register we
    /// identify, it must be the one the reference names, with the same values.
    @Test func commBRegistersAgreeWithTheReference() throws {
        guard let url = SharedData.file("messages/golden_v2.json") else { return }
        let golden = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: [String: Any]])
        var compared = 0
        for (hex, reference) in golden {
            let message = try decoded(hex)
            #expect(message.icaoHex == (reference["icao"] as? String)?.lowercased())
            #expect(message.df == reference["df"] as? Int)
            if let altitude = reference["altitude"] as? Int, message.typeCode.map({ $0 < 20 }) ?? true {
                #expect(message.altitudeBaroFt == altitude, "\(hex)")
            }
            if let squawk = reference["squawk"] as? String { #expect(message.squawk == squawk) }
            guard let bds = message.bds, message.df >= 20 else { continue }
            let named = (reference["bds"] as? String ?? "").split(separator: ",").map { $0.dropFirst(3) }
            let ours = bds.replacingOccurrences(of: ",", with: "")
            guard named.count == 1 else { continue }  // the reference itself was unsure
            #expect(named[0] == ours[...], "\(hex): ours \(bds), reference \(named)")
            if let ias = reference["indicated_airspeed"] as? Int { #expect(message.indicatedAirspeedKt == ias) }
            if let mach = reference["mach"] as? Double { #expect(abs((message.mach ?? -1) - mach) < 0.001) }
            if let roll = reference["roll"] as? Double { #expect(abs((message.rollDeg ?? 999) - roll) < 0.01) }
            if let tas = reference["true_airspeed"] as? Int { #expect(message.trueAirspeedKt == tas) }
            if let mcp = reference["selected_altitude_mcp"] as? Int, message.selectedAltitudeSource == "mcp" {
                #expect(message.selectedAltitudeFt == mcp)
            }
            compared += 1
        }
        #expect(compared > 300)
    }
}

@Suite struct CommBTests {
    @Test func selectedVerticalIntention() throws {
        let message = try decoded("A00015B7C26E1370AA00005DD34A")
        #expect(message.bds == "4,0")
        #expect(message.selectedAltitudeFt == 34_000)
        #expect(message.baroSettingHpa == 1013.3)
    }

    @Test func trackAndTurn() throws {
        let message = try decoded("A0000930FE7B2D287FE4A76CC3B8")
        #expect(message.bds == "5,0")
        #expect(message.groundSpeedKt == 322)
        #expect(message.trueAirspeedKt == 334)
        #expect(abs(try #require(message.rollDeg) + 2.285) < 0.01)
    }

    @Test func headingAndSpeed() throws {
        let message = try decoded("A0000638B699F11BE3846DCA35F9")
        #expect(message.bds == "6,0")
        #expect(message.indicatedAirspeedKt == 248)
        #expect(message.mach == 0.444)
        #expect(message.baroVerticalRateFpm == 3584)
    }

    @Test func identificationRegister() throws {
        let message = try decoded("A8001EBCFFFB23286004A73F6A5B")
        if message.bds == "2,0" { #expect(message.callsign != nil) }
        var bits = ModeSBits(bitCount: 112)
        bits.setField(1, 5, 20)
        bits.setField(33, 40, 0x20)
        // "KLM1023 " in the 6-bit alphabet.
        let codes: [UInt64] = [11, 12, 13, 49, 48, 50, 51, 32]
        for (index, code) in codes.enumerated() { bits.setField(41 + 6 * index, 46 + 6 * index, code) }
        let register = try decoded(CRC.withParity(bits, overlay: 0x4840D6).hex)
        #expect(register.bds == "2,0")
        #expect(register.callsign == "KLM1023")
    }

    @Test func ambiguousRepliesAreLeftUnidentified() throws {
        // Fits both "MCP altitude 8,000 ft" (4,0) and a capability report (1,7).
        let message = try decoded("A00003328FA0000000000025D7DB")
        #expect(message.bds == nil)
        #expect(message.selectedAltitudeFt == nil)
    }

    @Test func calibratedAirspeedMatchesTheStandardAtmosphere() {
        // At sea level CAS equals TAS: Mach 0.5 is about 330.7 kt.
        #expect(abs(CommB.calibratedAirspeed(mach: 0.5, altitudeFt: 0) - 330.7) < 1)
        // Mach 0.78 at FL350 is about 270 kt calibrated.
        #expect(abs(CommB.calibratedAirspeed(mach: 0.78, altitudeFt: 35_000) - 270) < 6)
    }
}
