/// Encodes a Mode A identity ("squawk", four octal digits ABCD) into the 13-bit ID field
/// of DF5/21 and ADS-B aircraft status messages: C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4.
public enum IdentityEncoder {
    /// The 13-bit field for a squawk such as "7000"; nil unless it is four octal digits.
    public static func field(squawk: String) -> UInt64? {
        let digits = squawk.utf8.map { Int($0) - Int(UInt8(ascii: "0")) }
        guard digits.count == 4, digits.allSatisfy({ (0...7).contains($0) }) else { return nil }
        let a = digits[0], b = digits[1], c = digits[2], d = digits[3]
        func bit(_ digit: Int, _ weight: Int) -> UInt64 { UInt64((digit >> weight) & 1) }
        return bit(c, 0) << 12 | bit(a, 0) << 11 | bit(c, 1) << 10 | bit(a, 1) << 9
            | bit(c, 2) << 8 | bit(a, 2) << 7 | bit(b, 0) << 5 | bit(d, 0) << 4
            | bit(b, 1) << 3 | bit(d, 1) << 2 | bit(b, 2) << 1 | bit(d, 2)
    }
}
