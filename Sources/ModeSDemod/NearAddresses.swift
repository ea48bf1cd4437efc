import ModeS
/// Every parity an address/parity reply from a seen aircraft can show with one wrong bit:
/// the aircraft's address XOR the syndrome of a lone error at each bit (outside the
/// downlink format), for short and long replies.
///
/// A noise slice seldom lands on one of these, so the demodulator asks here before spending
/// bit confidences on a one-bit repair (`RepairGate.addressParityRepair`). A Bloom-style
/// bitmap of 2^21 bits (256 KiB, allocated once, small enough to stay in cache on the hot
/// path), indexed by a hash of the parity: a few hundred aircraft mark a few percent of it,
/// which is how often noise gets past.
struct NearAddresses {
    /// Bits in the bitmap.
    private static let bitCount = 1 << 21
    /// The bitmap, 64 bits per word.
    private var marks = [UInt64](repeating: 0, count: bitCount / 64)

    /// An empty set.
    init() {}

    /// Marks every parity one wrong bit away from `address`.
    mutating func insert(_ address: UInt32) {
        // Bits 1...5 are the downlink format, which is never repaired.
        for syndrome in SyndromeTable.shortLoneErrors[6...] { mark(address ^ syndrome) }
        for syndrome in SyndromeTable.longLoneErrors[6...] { mark(address ^ syndrome) }
    }

    /// Sets the bitmap bit of `parity`.
    private mutating func mark(_ parity: UInt32) {
        let index = Self.index(parity)
        marks[index >> 6] |= 1 << UInt64(index & 63)
    }

    /// Whether `parity` may be a seen address with one wrong bit.
    @inline(__always)
    func mayContain(_ parity: UInt32) -> Bool {
        let index = Self.index(parity)
        return marks[index >> 6] >> UInt64(index & 63) & 1 == 1
    }

    @inline(__always)
    private static func index(_ parity: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(parity & 0xFF_FFFF) &* 0x9E37_79B9_7F4A_7C15) >> 43)
    }
}
