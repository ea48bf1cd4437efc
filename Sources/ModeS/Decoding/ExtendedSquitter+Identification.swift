import FoundationEssentials

/// Identification and category, type codes 1–4.
///
/// | ME bits | field |
/// | --- | --- |
/// | 1–5 | type code: 4 set A, 3 set B, 2 set C, 1 set D (the emitter category's set) |
/// | 6–8 | emitter category within the set (A3: large aircraft, B1: glider, ...) |
/// | 9–56 | callsign: eight 6-bit characters of the ICAO alphabet |
extension ExtendedSquitter {
    /// The 64 characters of the 6-bit callsign alphabet ('#' marks unused codes).
    static let alphabet: [Character] = Array("#ABCDEFGHIJKLMNOPQRSTUVWXYZ##### ###############0123456789######")

    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeIdentification(_ me: (Int, Int) -> UInt64, typeCode: Int,
                                     into message: inout Message) {
        let set = ["D", "C", "B", "A"][typeCode - 1]
        message.category = "\(set)\(me(6, 8))"
        message.callsign = callsign(me(9, 56))
    }

    /// Callsign characters from eight 6-bit codes; nil if any code is outside the alphabet.
    static func callsign(_ field: UInt64) -> String? {
        var characters = [Character]()
        for index in 0..<8 {
            let code = Int((field >> UInt64(42 - 6 * index)) & 0x3F)
            let character = alphabet[code]
            if character == "#" { return nil }
            characters.append(character)
        }
        let text = String(characters)
        let trimmed = text.reversed().drop { $0 == " " }.reversed()
        return String(trimmed)
    }
}
