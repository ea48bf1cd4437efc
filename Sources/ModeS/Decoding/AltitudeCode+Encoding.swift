/// Encoding of barometric altitude the two ways Mode S carries it: in 25 ft steps (Q bit set)
/// and, above 50,175 ft or for old transponders, in the Gillham (Mode C) code in 100 ft
/// steps.
///
/// Two layouts exist: the 13-bit AC field of DF0/4/16/20 (with the M bit, 0 for feet) and
/// the 12-bit altitude field of ADS-B airborne positions (the same without the M bit).
/// Both interleave the Gillham pulses as C1 A1 C2 A2 C4 A4 [M] B1 Q(D1) B2 D2 B4 D4.
extension AltitudeCode {
    /// The 11-bit count of 25 ft steps above −1000 ft, nil when out of range.
    public static func count25ft(_ altitudeFt: Int) -> UInt64? {
        let steps = (Double(altitudeFt + 1000) / 25).rounded()
        guard steps >= 0, steps <= 2047 else { return nil }
        return UInt64(steps)
    }

    /// The Gillham pulses, in the 13-bit identity-field order (C1 A1 C2 A2 C4 A4 X B1 D1 B2
    /// D2 B4 D4) with the X and D1 positions zero, for `altitudeFt` rounded to 100 ft.
    /// Nil below −1200 ft or above 126,700 ft (the code's range without D1).
    public static func gillhamPulses(_ altitudeFt: Int) -> UInt64? {
        let hundreds = Int((Double(altitudeFt) / 100).rounded())
        // The code counts 100 ft steps from −1300 ft: n = five-hundreds × 5 + ones, ones in 1...5.
        let n = hundreds + 13
        guard n >= 1 else { return nil }
        let fiveHundreds = (n - 1) / 5
        var ones = (n - 1) % 5 + 1
        guard fiveHundreds < 256 else { return nil }  // D2..B4 are 8 Gray-coded bits
        // The 100 ft digit runs backwards in every other 500 ft band (the code is reflected).
        if fiveHundreds % 2 == 1 { ones = 6 - ones }
        // The 100 ft digit uses Gray codes 001 011 010 110 100 for 1...5 (C1 C2 C4).
        let onesBinary = ones == 5 ? 7 : ones
        let onesGray = onesBinary ^ (onesBinary >> 1)
        let fiveGray = fiveHundreds ^ (fiveHundreds >> 1)
        // fiveGray bits from the top: D2 D4 A1 A2 A4 B1 B2 B4 (D1 is always 0 here).
        func five(_ index: Int) -> UInt64 { UInt64((fiveGray >> (7 - index)) & 1) }
        let c1 = UInt64((onesGray >> 2) & 1)
        let c2 = UInt64((onesGray >> 1) & 1)
        let c4 = UInt64(onesGray & 1)
        let d2 = five(0)
        let d4 = five(1)
        let a1 = five(2)
        let a2 = five(3)
        let a4 = five(4)
        let b1 = five(5)
        let b2 = five(6)
        let b4 = five(7)
        return c1 << 12 | a1 << 11 | c2 << 10 | a2 << 9 | c4 << 8 | a4 << 7 | b1 << 5
            | b2 << 3 | d2 << 2 | b4 << 1 | d4
    }

    /// The 13-bit AC field (DF0/4/16/20) for an altitude in feet: 25 ft code when in range
    /// and not `forceGillham`, else Gillham. Nil when the altitude cannot be coded.
    public static func acField(_ altitudeFt: Int, forceGillham: Bool = false) -> UInt64? {
        if !forceGillham, let n = count25ft(altitudeFt) {
            // N's 11 bits around M (bit 7 from the top, 0 = feet) and Q (bit 9, 1 = 25 ft).
            return (n >> 5) << 7 | ((n >> 4) & 1) << 5 | 1 << 4 | (n & 0xF)
        }
        return gillhamPulses(altitudeFt)
    }

    /// The 12-bit altitude field of an ADS-B airborne position (no M bit).
    public static func positionField(_ altitudeFt: Int, forceGillham: Bool = false) -> UInt64? {
        guard let ac = acField(altitudeFt, forceGillham: forceGillham) else { return nil }
        return (ac >> 7) << 6 | (ac & 0x3F)
    }
}
