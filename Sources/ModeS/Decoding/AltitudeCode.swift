/// Altitude fields of Mode S replies and ADS-B position messages.
///
/// Two encodings share these fields. With the Q bit set, the remaining 11 bits count 25 ft
/// steps from −1,000 ft. With Q clear, the bits are the Gillham code Mode C transponders have
/// always used: a Gray-coded count of 500 ft steps and a 5-state code for the 100 ft step.
public enum AltitudeCode {
    /// The 13-bit AC field of DF0/4/16/20 (bits 20–32), in feet; nil when not available or
    /// invalid. `metric` reports whether the M bit (bit 7 of the field) was set.
    public static func decode13(_ field: UInt32) -> (feet: Int, metric: Bool)? {
        guard field != 0 else { return nil }
        if field & 0x40 != 0 {
            // M bit: 12 remaining bits are metres. Rare; converted so callers see feet.
            let metres = Int(((field & 0x1F80) >> 1) | (field & 0x3F))
            return (Int((Double(metres) * 3.28084).rounded()), true)
        }
        if field & 0x10 != 0 {
            // Q bit: drop M (bit 7) and Q (bit 9) and count 25 ft steps.
            let n = ((field & 0x1F80) >> 2) | ((field & 0x20) >> 1) | (field & 0x0F)
            return (Int(n) * 25 - 1000, false)
        }
        guard let feet = gillham(identityLayout: field) else { return nil }
        return (feet, false)
    }

    /// The 12-bit altitude field of ADS-B airborne position messages (ME bits 9–20): the AC
    /// field without its M bit. In feet; nil when not available or invalid.
    public static func decode12(_ field: UInt32) -> Int? {
        guard field != 0 else { return nil }
        if field & 0x10 != 0 {
            let n = ((field & 0xFE0) >> 1) | (field & 0x0F)
            return Int(n) * 25 - 1000
        }
        // Re-insert a zero M bit to get the 13-bit layout.
        let thirteen = ((field & 0xFC0) << 1) | (field & 0x3F)
        return gillham(identityLayout: thirteen)
    }

    /// Decodes Gillham (Mode C) altitude from a 13-bit field laid out like the identity field:
    /// C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4 (X is the M bit and D1 the Q bit in an AC field).
    public static func gillham(identityLayout field: UInt32) -> Int? {
        let code = IdentityCode.Pulses(field: field)
        // D1 D2 D4 A1 A2 A4 B1 B2 B4 (most significant first) is a reflected Gray code counting
        // 500 ft steps. A digit holds its pulses as (4, 2, 1), so each is reversed to (1, 2, 4).
        let gray500 = (code.d.reversedThreeBits << 6) | (code.a.reversedThreeBits << 3) | code.b.reversedThreeBits
        let fiveHundreds = grayToBinary(gray500)
        // C1 C2 C4 is a Gray-coded count of 100 ft steps that uses only five of its states.
        // Its states are Gray 001, 011, 010, 110 and 100, i.e. binary 1, 2, 3, 4 and 7; the
        // last one stands for 5, and binary 0, 5 and 6 never occur in a valid code.
        var hundreds = grayToBinary(code.c.reversedThreeBits)
        switch hundreds {
        case 1...4: break
        case 7: hundreds = 5
        default: return nil
        }
        // The 100 ft count runs backwards in every odd 500 ft band, so the code stays a
        // single-bit-change code across band edges.
        if fiveHundreds % 2 == 1 { hundreds = 6 - hundreds }
        let feet = Int(fiveHundreds) * 500 + Int(hundreds) * 100 - 1300
        return feet >= -1200 ? feet : nil
    }

    private static func grayToBinary(_ gray: UInt32) -> UInt32 {
        var binary = gray
        var shift = gray >> 1
        while shift != 0 {
            binary ^= shift
            shift >>= 1
        }
        return binary
    }
}

extension UInt32 {
    /// The low three bits in reverse order (abc -> cba).
    fileprivate var reversedThreeBits: UInt32 {
        ((self & 1) << 2) | (self & 2) | ((self & 4) >> 2)
    }
}
