/// The Mode S cyclic redundancy check: a 24-bit CRC with generator polynomial
/// x^24 + x^23 + ... + x^10 + x^3 + 1 (0xFFF409 without the implicit top bit), computed
/// most-significant bit first over every bit before the 24-bit parity field.
///
/// The *syndrome* of a message is the CRC of its data bits XOR its parity field. It is zero
/// for an undamaged DF11/17/18 message, the transponder's address for the address/parity
/// formats (DF0/4/5/16/20/21), and for a damaged message it identifies the damaged bits
/// (see `SyndromeTable`).
public enum CRC {
    /// The generator polynomial, top bit omitted.
    public static let polynomial: UInt32 = 0xFFF409

    /// One remainder per byte value, so the CRC advances a byte at a time.
    private static let table: [UInt32] = (0..<256).map { value in
        var remainder = UInt32(value) << 16
        for _ in 0..<8 {
            remainder = remainder & 0x800000 != 0 ? (remainder << 1) ^ polynomial : remainder << 1
        }
        return remainder & 0xFFFFFF
    }

    /// The CRC of the first `bitCount - 24` bits of `bits` (the data part).
    @inline(__always)
    public static func checksum(of bits: ModeSBits) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var remainder: UInt32 = 0
            for index in 0..<(bits.byteCount - 3) {
                let top = UInt8(truncatingIfNeeded: remainder >> 16) ^ bits.byte(index)
                remainder = ((remainder << 8) & 0xFFFFFF) ^ table[Int(top)]
            }
            return remainder
        }
    }

    /// The CRC of the data bits XOR the parity field.
    @inline(__always)
    public static func syndrome(of bits: ModeSBits) -> UInt32 {
        checksum(of: bits) ^ bits.parityField
    }

    /// Returns `bits` with its parity field set so that its syndrome is `overlay`:
    /// 0 for DF11/17/18 with a clean CRC, the address for address/parity formats.
    public static func withParity(_ bits: ModeSBits, overlay: UInt32 = 0) -> ModeSBits {
        var result = bits
        let parity = checksum(of: bits) ^ (overlay & 0xFFFFFF)
        result.setField(bits.bitCount - 23, bits.bitCount, UInt64(parity))
        return result
    }
}
