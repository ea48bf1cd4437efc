/// Callsigns as the route data keys them: normalised the way the standing data's routes
/// are (its README, "Normalisation"), and packed into one integer for a compact, sorted
/// table.
package enum Callsign {
    /// The normalised form of `callsign`, or nil when it cannot name a route: the airline code
    /// (three letters, or an IATA code of two characters, which `iataToICAO` turns into the
    /// airline's ICAO code when exactly one airline has it), then the flight number without
    /// leading zeros ("0" when nothing or only letters would remain), at most four characters,
    /// digits followed by at most two letters. "EZY0001" is "EZY1", "U21234" "EZY1234".
    package static func normalised(_ callsign: String, iataToICAO: (String) -> String? = { _ in nil }) -> String? {
        let text = Array(callsign.uppercased().utf8.filter { $0 != 0x20 })
        guard text.count >= 3, text.count <= 12, text.allSatisfy({ isLetter($0) || isDigit($0) }) else { return nil }
        var codeLength: Int
        if isLetter(text[0]), isLetter(text[1]) {
            codeLength = text.count > 2 && isLetter(text[2]) ? 3 : 2
        } else if isLetter(text[0]) != isLetter(text[1]) {
            codeLength = 2
        } else {
            return nil
        }
        guard codeLength < text.count, isDigit(text[codeLength]) else { return nil }
        var code = String(decoding: text[..<codeLength], as: UTF8.self)
        var number = Array(text[codeLength...].drop { $0 == UInt8(ascii: "0") })
        if number.isEmpty || isLetter(number[0]) { number.insert(UInt8(ascii: "0"), at: 0) }
        guard number.count <= 4 else { return nil }
        let digits = number.prefix { isDigit($0) }.count
        guard number.count - digits <= 2, number[digits...].allSatisfy(isLetter) else { return nil }
        if codeLength == 2, let icao = iataToICAO(code) { code = icao }
        return code + String(decoding: number, as: UTF8.self)
    }

    /// `callsign` (letters and digits, at most ten) as one integer, six bits a character from
    /// the left, so that distinct callsigns give distinct keys; nil for anything else.
    package static func key(_ callsign: String) -> UInt64? {
        let bytes = callsign.utf8
        guard !bytes.isEmpty, bytes.count <= 10 else { return nil }
        var key: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            let value: UInt64
            if isDigit(byte) {
                value = UInt64(byte - UInt8(ascii: "0")) + 1
            } else if isLetter(byte) {
                value = UInt64(byte - UInt8(ascii: "A")) + 11
            } else {
                return nil
            }
            key |= value << UInt64(54 - 6 * index)
        }
        return key
    }

    /// Whether `byte` is an upper-case ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
