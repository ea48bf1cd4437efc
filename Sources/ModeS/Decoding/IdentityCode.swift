/// The 13-bit identity field (Mode A code, "squawk") of DF5/21 replies and ADS-B emergency
/// messages.
///
/// The field interleaves the pulses of the four octal digits A, B, C, D as
/// C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4, where X is unused and each digit is
/// (pulse 4, pulse 2, pulse 1) read as a 3-bit number.
public enum IdentityCode {
    /// The four digits of a 13-bit identity field, each 0–7.
    public struct Pulses: Sendable, Equatable {
        /// Digit A as A4 A2 A1.
        public var a: UInt32
        /// Digit B as B4 B2 B1.
        public var b: UInt32
        /// Digit C as C4 C2 C1.
        public var c: UInt32
        /// Digit D as D4 D2 D1.
        public var d: UInt32

        /// Separates the interleaved pulses of `field` (bit 12 is C1, bit 0 is D4).
        public init(field: UInt32) {
            func pulse(_ position: Int) -> UInt32 { (field >> UInt32(12 - position)) & 1 }
            // Positions counted from the first (most significant) bit of the field, 0-based.
            c = pulse(0) | pulse(2) << 1 | pulse(4) << 2
            a = pulse(1) | pulse(3) << 1 | pulse(5) << 2
            b = pulse(7) | pulse(9) << 1 | pulse(11) << 2
            d = pulse(8) | pulse(10) << 1 | pulse(12) << 2
        }

        /// The 13-bit field carrying these digits.
        public var field: UInt32 {
            func place(_ digit: UInt32, _ positions: (Int, Int, Int)) -> UInt32 {
                ((digit & 1) << UInt32(12 - positions.0)) | (((digit >> 1) & 1) << UInt32(12 - positions.1))
                    | (((digit >> 2) & 1) << UInt32(12 - positions.2))
            }
            return place(c, (0, 2, 4)) | place(a, (1, 3, 5)) | place(b, (7, 9, 11)) | place(d, (8, 10, 12))
        }
    }

    /// The squawk as four octal digits, e.g. "7700".
    public static func squawk(_ field: UInt32) -> String {
        let p = Pulses(field: field)
        return "\(p.a)\(p.b)\(p.c)\(p.d)"
    }

    /// The 13-bit field for a squawk of four octal digits, or nil if it is not one.
    public static func encode(squawk: String) -> UInt32? {
        let digits = squawk.compactMap { $0.wholeNumberValue }
        guard squawk.count == 4, digits.count == 4, digits.allSatisfy({ $0 < 8 }) else { return nil }
        var p = Pulses(field: 0)
        p.a = UInt32(digits[0])
        p.b = UInt32(digits[1])
        p.c = UInt32(digits[2])
        p.d = UInt32(digits[3])
        return p.field
    }
}
