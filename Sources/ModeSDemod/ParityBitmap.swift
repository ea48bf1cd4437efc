import ModeS

/// A set of 24-bit parities or syndromes that may answer "maybe" for one it does not hold:
/// a bitmap of 2^21 bits (256 KiB, small enough to stay in cache on the hot path) indexed
/// by a hash of the value. A value it holds always gets past; one it does not, as often as
/// the share of its bits marked: a few percent for a few tens of thousands of values, a
/// tenth for a quarter of a million. A cheap first look before costlier work on values
/// that are seldom in the set.
struct ParityBitmap: Sendable {
    /// Bits in the bitmap.
    private static let bitCount = 1 << 21
    /// The bitmap, 64 bits per word.
    private var marks = [UInt64](repeating: 0, count: bitCount / 64)

    /// An empty set.
    init() {}

    /// Adds `value` (its low 24 bits).
    mutating func insert(_ value: UInt32) {
        let index = Self.index(value)
        marks[index >> 6] |= 1 << UInt64(index & 63)
    }

    /// Whether `value` (its low 24 bits) may be in the set: always when it is.
    @inline(__always)
    func mayContain(_ value: UInt32) -> Bool {
        let index = Self.index(value)
        return marks.withUnsafeBufferPointer { $0[index >> 6] } >> UInt64(index & 63) & 1 == 1
    }

    /// A multiplicative hash of the 24 bits down to the bitmap's 21.
    @inline(__always)
    private static func index(_ value: UInt32) -> Int {
        MultiplicativeHash.of(value & 0xFF_FFFF, bits: 21)
    }
}
