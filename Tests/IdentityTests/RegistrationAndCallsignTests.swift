import Identity
import Testing

/// US registrations from the address (`NNumber`), callsign normalisation (`Callsign`) and
/// the class of a type or an emitter category (`AircraftClass`).
@Suite struct RegistrationAndCallsignTests {
    @Test(arguments: [
        (0xA00001, "N1"), (0xA00002, "N1A"), (0xA00003, "N1AA"), (0xA0001A, "N1AZ"), (0xA0001B, "N1B"),
        (0xA00259, "N1ZZ"), (0xA0025A, "N10"), (0xA18D50, "N2"), (0xADF7C7, "N99999"), (0xADF7C6, "N99998"),
        (0xADF7BD, "N9999Z")
    ])
    func usAddressesGiveTheirNNumber(address: Int, registration: String) {
        #expect(NNumber.registration(for: UInt32(address)) == registration)
    }

    @Test func addressesOutsideTheUSBlockHaveNone() {
        #expect(NNumber.registration(for: 0xA00000) == nil)
        #expect(NNumber.registration(for: 0xADF7C8) == nil)
        #expect(NNumber.registration(for: 0x400000) == nil)
    }

    @Test func everyUSAddressHasADistinctWellFormedRegistration() {
        var seen = Set<String>()
        var malformed = 0
        for address in NNumber.first...NNumber.last {
            let registration = NNumber.registration(for: address) ?? ""
            if registration.count > 6 || !registration.hasPrefix("N")
                || registration.contains(where: { "IO".contains($0) })
            {
                malformed += 1
            }
            seen.insert(registration)
        }
        #expect(malformed == 0)
        #expect(seen.count == Int(NNumber.last - NNumber.first) + 1)
    }

    @Test(
        arguments: [
            ("EZY1200", "EZY1200"), ("EZY0001", "EZY1"), ("EZY0000", "EZY0"), ("EZY00AB", "EZY0AB"),
            ("U21234", "EZY1234"),
            ("ezy 12", "EZY12"), ("BAW12345", nil), ("BAW1ABC", nil), ("N12345", "N12345"), ("12", nil), ("EZY", nil),
            ("BAW-1", nil)
        ] as [(String, String?)])
    func callsignsAreNormalisedAsTheRoutesAre(callsign: String, normalised: String?) {
        #expect(Callsign.normalised(callsign, iataToICAO: { $0 == "U2" ? "EZY" : nil }) == normalised)
    }

    @Test func keysAreDistinctAndOrderedAsTheText() {
        let callsigns = ["A1", "AB1", "EZY1", "EZY10", "EZY1A", "EZY2", "Z9999ZZZ"]
        let keys = callsigns.compactMap(Callsign.key)
        #expect(keys.count == callsigns.count)
        #expect(keys == keys.sorted())
        #expect(Callsign.key("EZY-1") == nil)
        #expect(Callsign.key("ABCDEFGHIJK") == nil)
    }

    @Test func classesComeFromTheTypeElseTheEmitterCategory() {
        #expect(AircraftClass.of(designator: "A320", species: "L", engineType: "J", wake: "M") == .mediumJet)
        #expect(AircraftClass.of(designator: "B77W", species: "L", engineType: "J", wake: "H") == .heavy)
        #expect(AircraftClass.of(designator: "A388", species: "L", engineType: "J", wake: "J") == .heavy)
        #expect(AircraftClass.of(designator: "C172", species: "L", engineType: "P", wake: "L") == .light)
        #expect(AircraftClass.of(designator: "DH8D", species: "L", engineType: "T", wake: "M") == .small)
        #expect(AircraftClass.of(designator: "EC35", species: "H", engineType: "T", wake: "L") == .helicopter)
        #expect(AircraftClass.of(designator: "BALL", species: "L", engineType: "", wake: "L") == .balloon)
        #expect(AircraftClass.of(designator: "GLID", species: "L", engineType: "", wake: "L") == .glider)
        #expect(AircraftClass.of(emitterCategory: "B6") == .drone)
        #expect(AircraftClass.of(emitterCategory: "A7") == .helicopter)
        #expect(AircraftClass.of(emitterCategory: "A0") == nil)
    }
}
