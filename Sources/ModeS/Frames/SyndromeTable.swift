/// Maps the syndrome of a damaged message back to the bits that were damaged.
///
/// The CRC is linear, so the syndrome of a message with errors is the XOR of the syndromes
/// each wrong bit would cause alone. The table holds the syndrome of every single-bit error
/// and, when built with `maxErrors: 2`, of every pair of bits. A syndrome that two different
/// error patterns share is dropped: correcting it would be a guess.
///
/// Lookups happen for many noise candidates on the demodulator's hot path, so the table is a
/// flat open-addressed hash of fixed size: no allocation and no hashing overhead per lookup.
public struct SyndromeTable: Sendable {
    /// The bits to flip for one syndrome (1-based bit numbers; `second` is 0 for one bit).
    public struct Correction: Sendable, Equatable {
        /// The first bit to flip (1-based).
        public let first: UInt8
        /// The second bit to flip (1-based), or 0 when one bit is enough.
        public let second: UInt8
        /// How many bits the correction flips.
        public var bitCount: Int { second == 0 ? 1 : 2 }
    }

    private let keys: [UInt32]
    private let values: [Correction]
    private let mask: Int
    /// Message length the table was built for (56 or 112).
    public let messageBits: Int
    /// The most bits one correction may flip.
    public let maxErrors: Int

    private static let emptyKey: UInt32 = 0xFFFF_FFFF

    /// Builds the table for messages of `messageBits` bits, correcting up to `maxErrors` bits
    /// (1 or 2) and never touching bits `1...protectedPrefix` (the downlink format: repairing
    /// it would turn one kind of message into another).
    public init(messageBits: Int, maxErrors: Int, protectedPrefix: Int = 5) {
        precondition(maxErrors == 1 || maxErrors == 2)
        self.messageBits = messageBits
        self.maxErrors = maxErrors
        // The syndrome of a lone error at each bit position.
        let single = Self.loneErrorSyndromes(messageBits: messageBits)
        var entries: [UInt32: Correction] = [:]
        var ambiguous = Set<UInt32>()
        func add(_ syndrome: UInt32, _ correction: Correction) {
            if entries[syndrome] != nil { ambiguous.insert(syndrome) } else { entries[syndrome] = correction }
        }
        let first = protectedPrefix + 1
        for a in first...messageBits {
            add(single[a], Correction(first: UInt8(a), second: 0))
            if maxErrors == 2, a < messageBits {
                for b in (a + 1)...messageBits {
                    add(single[a] ^ single[b], Correction(first: UInt8(a), second: UInt8(b)))
                }
            }
        }
        for syndrome in ambiguous { entries[syndrome] = nil }

        var capacity = 1
        while capacity < entries.count * 2 { capacity <<= 1 }
        var keys = [UInt32](repeating: Self.emptyKey, count: capacity)
        var values = [Correction](repeating: Correction(first: 0, second: 0), count: capacity)
        for (syndrome, correction) in entries {
            var slot = Self.slot(for: syndrome, mask: capacity - 1)
            while keys[slot] != Self.emptyKey { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = syndrome
            values[slot] = correction
        }
        self.keys = keys
        self.values = values
        self.mask = capacity - 1
    }

    /// The bits to flip for `syndrome`, or nil when it is not correctable.
    @inline(__always)
    public func correction(for syndrome: UInt32) -> Correction? {
        keys.withUnsafeBufferPointer { keys in
            var slot = Self.slot(for: syndrome, mask: mask)
            while true {
                let key = keys[slot]
                if key == syndrome { return values[slot] }
                if key == Self.emptyKey { return nil }
                slot = (slot + 1) & mask
            }
        }
    }

    @inline(__always)
    private static func slot(for syndrome: UInt32, mask: Int) -> Int {
        // Multiplicative hashing spreads the CRC's structured values over the slots.
        MultiplicativeHash.of(syndrome, bits: 24) & mask
    }
}

extension SyndromeTable {
    /// The one-bit table for short (56-bit) replies, built once and shared by every user:
    /// building it costs far more than a lookup, and it never changes.
    public static let shortOneBit = SyndromeTable(messageBits: 56, maxErrors: 1)
    /// The two-bit table for long (112-bit) replies, built once and shared (about 6000
    /// syndromes: too costly to build per validator or per demodulator).
    public static let longTwoBit = SyndromeTable(messageBits: 112, maxErrors: 2)

    /// The syndrome of a lone error at each bit of a short reply, indexed by the 1-based
    /// bit number (index 0 holds 0). Because the CRC is linear, XOR-ing entries gives the
    /// syndrome of any error pattern, which the repairs use to test candidate bits.
    public static let shortLoneErrors = computeLoneErrorSyndromes(messageBits: 56)
    /// The same for a long reply.
    public static let longLoneErrors = computeLoneErrorSyndromes(messageBits: 112)

    /// The lone-error syndromes for `messageBits`-bit messages (the shared arrays for 56 and
    /// 112 bits), indexed by the 1-based bit number.
    static func loneErrorSyndromes(messageBits: Int) -> [UInt32] {
        switch messageBits {
        case 56: shortLoneErrors
        case 112: longLoneErrors
        default: computeLoneErrorSyndromes(messageBits: messageBits)
        }
    }

    /// Computes the syndrome of a message whose only set bit is each bit in turn.
    private static func computeLoneErrorSyndromes(messageBits: Int) -> [UInt32] {
        var single = [UInt32](repeating: 0, count: messageBits + 1)
        for number in 1...messageBits {
            var bits = ModeSBits(bitCount: messageBits)
            bits.flipBit(number)
            single[number] = CRC.syndrome(of: bits)
        }
        return single
    }
}
