/// The 56 or 112 bits of one Mode S transmission, held in two machine words so that a
/// message is a plain value: no heap allocation, cheap to copy, hashable.
///
/// Bits are numbered from 1 (the first bit on air, the top bit of the downlink format)
/// to 56 or 112, exactly as the Mode S specification's field tables number them, so
/// `field(1, 5)` is the downlink format and `field(9, 32)` is the AA field of DF11/17/18.
public struct ModeSBits: Sendable, Hashable {
    /// Bits 1...64, bit 1 in the most significant position.
    public var high: UInt64 { highWord }
    /// Bits 65...112 in the top 48 bits; the low 16 bits are always zero.
    public var low: UInt64 { lowWord }
    // The words themselves, visible to the inlinable accessors below: the demodulator reads
    // and flips bits in its innermost loops, where a call per bit across modules would cost
    // more than the bit operation.
    @usableFromInline var highWord: UInt64
    @usableFromInline var lowWord: UInt64
    /// 56 for a short message, 112 for a long one.
    public let bitCount: Int

    /// The number of bytes on air: 7 or 14.
    public var byteCount: Int { bitCount / 8 }

    /// An all-zero message of the given length (56 or 112).
    public init(bitCount: Int) {
        precondition(bitCount == 56 || bitCount == 112, "Mode S messages are 56 or 112 bits")
        self.highWord = 0
        self.lowWord = 0
        self.bitCount = bitCount
    }

    /// A message from its bytes as sent on air (7 or 14 of them, first byte first).
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 7 || bytes.count == 14 else { return nil }
        self.init(bitCount: bytes.count * 8)
        for (index, byte) in bytes.enumerated() { setByte(index, byte) }
    }

    /// A message from 14 or 28 hexadecimal digits (either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        let utf8 = hex.utf8
        guard utf8.count == 14 || utf8.count == 28 else { return nil }
        self.init(bitCount: utf8.count * 4)
        var nibbleIndex = 0
        for character in utf8 {
            guard let nibble = Self.nibbleValue(character) else { return nil }
            let byteIndex = nibbleIndex / 2
            let current = byte(byteIndex)
            setByte(byteIndex, nibbleIndex % 2 == 0 ? nibble << 4 : current | nibble)
            nibbleIndex += 1
        }
    }

    /// The message as upper-case hexadecimal, the AVR convention.
    public var hex: String {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var characters = [UInt8]()
        characters.reserveCapacity(bitCount / 4)
        for index in 0..<byteCount {
            let value = byte(index)
            characters.append(digits[Int(value >> 4)])
            characters.append(digits[Int(value & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// Byte `index` (0-based) as sent on air.
    @inlinable @inline(__always)
    public func byte(_ index: Int) -> UInt8 {
        if index < 8 { return UInt8(truncatingIfNeeded: highWord >> UInt64(56 - 8 * index)) }
        return UInt8(truncatingIfNeeded: lowWord >> UInt64(56 - 8 * (index - 8)))
    }

    /// Replaces byte `index` (0-based).
    @inlinable @inline(__always)
    public mutating func setByte(_ index: Int, _ value: UInt8) {
        if index < 8 {
            let shift = UInt64(56 - 8 * index)
            highWord = (highWord & ~(0xFF << shift)) | (UInt64(value) << shift)
        } else {
            let shift = UInt64(56 - 8 * (index - 8))
            lowWord = (lowWord & ~(0xFF << shift)) | (UInt64(value) << shift)
        }
    }

    /// Bit `number` (1-based) as 0 or 1.
    @inlinable @inline(__always)
    public func bit(_ number: Int) -> UInt64 {
        number <= 64 ? (highWord >> UInt64(64 - number)) & 1 : (lowWord >> UInt64(128 - number)) & 1
    }

    /// Flips bit `number` (1-based): how error correction repairs a message.
    @inlinable @inline(__always)
    public mutating func flipBit(_ number: Int) {
        if number <= 64 { highWord ^= 1 << UInt64(64 - number) } else { lowWord ^= 1 << UInt64(128 - number) }
    }

    /// Sets bit `number` (1-based) to `value` (0 or 1).
    @inlinable @inline(__always)
    public mutating func setBit(_ number: Int, _ value: Bool) {
        if (bit(number) == 1) != value { flipBit(number) }
    }

    /// The field from bit `first` to bit `last` inclusive (1-based, at most 64 bits wide),
    /// right-aligned.
    @inlinable @inline(__always)
    public func field(_ first: Int, _ last: Int) -> UInt64 {
        let width = last - first + 1
        let mask: UInt64 = width == 64 ? ~0 : (1 << UInt64(width)) - 1
        if last <= 64 { return (highWord >> UInt64(64 - last)) & mask }
        if first > 64 { return (lowWord >> UInt64(128 - last)) & mask }
        // Straddles the two words.
        let lowWidth = last - 64
        let upper = highWord & ((1 << UInt64(64 - first + 1)) - 1)
        return ((upper << UInt64(lowWidth)) | (lowWord >> UInt64(64 - lowWidth))) & mask
    }

    /// Writes `value` into bits `first...last` (1-based, at most 64 bits wide).
    public mutating func setField(_ first: Int, _ last: Int, _ value: UInt64) {
        var remaining = value
        for number in stride(from: last, through: first, by: -1) {
            setBit(number, remaining & 1 == 1)
            remaining >>= 1
        }
    }

    /// The downlink format, bits 1–5. Formats 24 and above share the "11" prefix and are
    /// reported as 24.
    @inlinable
    public var downlinkFormat: Int {
        let value = Int(field(1, 5))
        return value >= 24 ? 24 : value
    }

    /// The last 24 bits: parity (possibly overlaid with an address).
    public var parityField: UInt32 { UInt32(field(bitCount - 23, bitCount)) }

    /// The message length a downlink format implies: 112 bits for DF16 and above, else 56.
    public static func bitCount(forDownlinkFormat df: Int) -> Int { df >= 16 ? 112 : 56 }

    @inline(__always)
    private static func nibbleValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension ModeSBits: CustomStringConvertible {
    public var description: String { hex }
}
