/// The 6-bit character set of Mode S identification (ICAO Annex 10): A–Z as 1–26, space as
/// 32, digits as 48–57. Eight characters fill 48 bits.
package enum CallsignCode {
    /// The 48-bit field for `callsign`, padded with spaces to eight characters. Characters
    /// outside the set (and lower case) are upper-cased or replaced by spaces.
    package static func field(_ callsign: String) -> UInt64 {
        var value: UInt64 = 0
        var characters = Array(callsign.uppercased().utf8.prefix(8))
        while characters.count < 8 { characters.append(UInt8(ascii: " ")) }
        for character in characters {
            let code: UInt64
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): code = UInt64(character - UInt8(ascii: "A") + 1)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): code = UInt64(character)
            default: code = 32
            }
            value = value << 6 | code
        }
        return value
    }
}
