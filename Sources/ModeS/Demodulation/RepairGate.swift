/// Decides, before `FrameValidator` sees them, whether the demodulated bits of a reply that
/// needs error correction may be repaired at all.
///
/// The syndrome tables map thousands of syndromes to "fixes", so a noise candidate that
/// happens to start with DF17 gets "repaired" into a well-formed but false message about
/// once in 3000 tries (two-bit table) or 150,000 tries (one-bit table); with tens of
/// thousands of noise candidates per second that is not rare enough. Facts about a real
/// damaged reply keep the repairs honest:
/// - the bits the syndrome points at were decided with low confidence (noise or an
///   overlapping pulse pushed their score near zero), so each must be among the
///   `rankLimit` least confident bits of the reply; for random bits that holds for about
///   rankLimit/112 of the cases per bit;
/// - a two-bit repair is accepted only for an address already confirmed by a clean CRC
///   (checked by the caller), so even a false repair could not invent an aircraft; the
///   looser `knownAddressRankLimit` then applies.
/// The same reasoning covers DF11 replies whose parity carries an interrogator code in its
/// low 7 bits: a single wrong bit there looks exactly like another code, so such a reply is
/// refused when one of those 7 bits is among the least confident.
struct RepairGate {
    /// The verdict on one demodulated reply.
    enum Verdict {
        /// Nothing to repair, or a plausible repair: let the validator decide.
        case admit
        /// A plausible repair, but only if this address is already known.
        case admitIfKnown(UInt32)
        /// An implausible repair: drop the reply.
        case reject
    }

    let rankLimit: Int
    let knownAddressRankLimit: Int
    let allowTwoBits: Bool
    private let shortTable = SyndromeTable(messageBits: 56, maxErrors: 1)
    private let longTable = SyndromeTable(messageBits: 112, maxErrors: 2)

    init(rankLimit: Int, knownAddressRankLimit: Int, allowTwoBits: Bool) {
        self.rankLimit = rankLimit
        self.knownAddressRankLimit = knownAddressRankLimit
        self.allowTwoBits = allowTwoBits
    }

    /// A first look that needs no per-bit confidence: `.admit` for bits that need no
    /// repair, `.reject` for bits no table entry can repair (the validator would refuse
    /// them too), nil when `judge` must look at the confidence. Noise mostly ends here.
    @inline(__always)
    func screen(_ bits: ModeSBits) -> Verdict? {
        switch bits.downlinkFormat {
        case 17, 18:
            let syndrome = CRC.syndrome(of: bits)
            if syndrome == 0 { return .admit }
            return longTable.correction(for: syndrome) == nil ? .reject : nil
        case 11:
            let syndrome = CRC.syndrome(of: bits)
            if syndrome == 0 { return .admit }
            if syndrome & 0xFFFF80 == 0 { return nil }
            return shortTable.correction(for: syndrome) == nil ? .reject : nil
        default:
            return .admit
        }
    }

    /// The verdict for `bits` that `screen` could not settle, given each bit's |score|.
    func judge(_ bits: ModeSBits, confidence: UnsafePointer<Int32>) -> Verdict {
        let syndrome = CRC.syndrome(of: bits)
        let count = bits.bitCount
        if bits.downlinkFormat == 11 {
            if syndrome & 0xFFFF80 == 0 {
                // An interrogator code: every one of its 7 bits must be confidently decided.
                for number in (count - 6)...count where rank(of: number, confidence, count) < rankLimit {
                    return .reject
                }
                return .admit
            }
            guard let fix = shortTable.correction(for: syndrome) else { return .reject }
            return rank(of: Int(fix.first), confidence, count) < rankLimit ? .admit : .reject
        }
        guard let fix = longTable.correction(for: syndrome) else { return .reject }
        let firstRank = rank(of: Int(fix.first), confidence, count)
        var repaired = bits
        repaired.flipBit(Int(fix.first))
        if fix.second == 0 {
            if firstRank < rankLimit { return .admit }
            return firstRank < knownAddressRankLimit ? .admitIfKnown(UInt32(repaired.field(9, 32))) : .reject
        }
        guard allowTwoBits, firstRank < knownAddressRankLimit,
              rank(of: Int(fix.second), confidence, count) < knownAddressRankLimit else { return .reject }
        repaired.flipBit(Int(fix.second))
        return .admitIfKnown(UInt32(repaired.field(9, 32)))
    }

    /// How many bits were decided with less confidence than bit `number` (1-based).
    private func rank(of number: Int, _ confidence: UnsafePointer<Int32>, _ count: Int) -> Int {
        let own = confidence[number - 1]
        var weaker = 0
        for index in 0..<count where confidence[index] < own { weaker += 1 }
        return weaker
    }
}
