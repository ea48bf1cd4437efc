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

    /// Data bytes in a long message (a short one has the last 4 of them).
    private static let dataBytes = 11

    /// The CRC is linear: the CRC of the data is the XOR of each data byte's own CRC with
    /// zeros everywhere else, which depends only on the byte and on how many data bytes
    /// follow it. One remainder per (bytes following, byte value), 256 per distance: the
    /// lookups do not wait for each other, as a remainder carried byte by byte would.
    private static let table: [UInt32] = (0..<(dataBytes * 256)).map { entry in
        let (following, value) = entry.quotientAndRemainder(dividingBy: 256)
        var remainder = UInt32(value) << 16
        for _ in 0..<(8 * (following + 1)) {
            remainder = remainder & 0x800000 != 0 ? (remainder << 1) ^ polynomial : remainder << 1
        }
        return remainder & 0xFFFFFF
    }

    /// The CRC of the first `bitCount - 24` bits of `bits` (the data part).
    @inline(__always)
    public static func checksum(of bits: ModeSBits) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            let count = bits.byteCount - 3
            var remainder: UInt32 = 0
            for index in 0..<count {
                remainder ^= table[256 * (count - 1 - index) + Int(bits.byte(index))]
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
