/// Multiplicative (Fibonacci) hashing of a 24-bit Mode S value (an address, a parity, a
/// syndrome) for the fixed open tables that look such values up: multiplying by 2⁶⁴/φ
/// spreads values that differ in a few low bits, as addresses and CRC syndromes do, over the
/// whole product, whose top bits are then the slot.
public enum MultiplicativeHash {
    /// The top `bits` bits (at most 64) of `value` × 2⁶⁴/φ.
    @inline(__always)
    public static func of(_ value: UInt32, bits: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(value) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }
}
