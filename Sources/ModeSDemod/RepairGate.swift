import ModeS

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
/// A DF11's interrogator code (the parity's low 7 bits, which nothing checks) is weighed by
/// `codeBits` and `AcceptancePolicy.codeUnambiguous`, never repaired; one wrong bit outside
/// it is (`allCallRepair`).
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

    /// A repaired bit must be among this many least confident bits.
    let rankLimit: Int
    /// The looser limit for repairs admitted only for a known address.
    let knownAddressRankLimit: Int
    /// Whether two-bit repairs are allowed at all.
    let allowTwoBits: Bool
    /// The shared two-bit table the validator uses too (see `SyndromeTable.longTwoBit`).
    private let longTable = SyndromeTable.longTwoBit
    /// The syndrome of a lone error at each bit of a long reply (index = bit number).
    private let singleSyndromes = SyndromeTable.longLoneErrors
    /// The same for a short reply.
    private let shortSingleSyndromes = SyndromeTable.shortLoneErrors
    /// How many of the least confident bits an address/parity repair may flip.
    static let addressParityCandidates = 6
    /// How many of the least confident bits a three-bit repair may start from.
    static let threeBitCandidates = 10
    /// Every syndrome three wrong bits of a long reply can give (228,000 of the 16.8
    /// million). A DF17 that no one- or two-bit repair explains has most often many more
    /// wrong bits (another reply across it), whose syndrome is as good as random: about
    /// one in seventy is one of these, and the bitmap lets about one in twelve past. The
    /// rest need no confidences measured and sorted (`threeBitRepairPossible`).
    private static let threeErrorSyndromes: ParityBitmap = {
        var syndromes = ParityBitmap()
        let single = SyndromeTable.longLoneErrors
        for first in 1...110 {
            for second in (first + 1)...111 {
                let pair = single[first] ^ single[second]
                for third in (second + 1)...112 { syndromes.insert(pair ^ single[third]) }
            }
        }
        return syndromes
    }()

    /// A gate with the given limits (see the properties).
    init(rankLimit: Int, knownAddressRankLimit: Int, allowTwoBits: Bool) {
        self.rankLimit = rankLimit
        self.knownAddressRankLimit = knownAddressRankLimit
        self.allowTwoBits = allowTwoBits
    }

    /// The result of a first look that needs no per-bit confidence.
    enum Screening {
        /// The CRC checks with a zero syndrome (DF11/17/18): as good as it gets.
        case clean
        /// Address/parity formats: the parity proves nothing until the address is looked
        /// up, so the reply must also look clean.
        case addressParity
        /// A repair (`judge` must look at the bit confidences), or a DF11's interrogator
        /// code (`codeBits` and the acceptance rules must).
        case needsJudgement
        /// A DF11 whose syndrome is that of one wrong bit outside its code (`allCallRepair`
        /// must look at the bit confidences).
        case allCallRepair
        /// No table entry can repair these bits (the validator would refuse them too).
        case reject
    }

    /// A first look at `bits`; noise mostly ends here.
    @inline(__always)
    func screen(_ bits: ModeSBits) -> Screening {
        switch bits.downlinkFormat {
        case 17, 18:
            let syndrome = CRC.syndrome(of: bits)
            if syndrome == 0 { return .clean }
            return longTable.correction(for: syndrome) == nil ? .reject : .needsJudgement
        case 11:
            let syndrome = CRC.syndrome(of: bits)
            if syndrome == 0 { return .clean }
            if syndrome & 0xFFFF80 == 0 { return .needsJudgement }
            return loneErrorOutsideCode(syndrome) == nil ? .reject : .allCallRepair
        default:
            return .addressParity
        }
    }

    /// The verdict for `bits` that `screen` could not settle, given each bit's |score|.
    func judge(_ bits: ModeSBits, confidence: UnsafePointer<Int32>) -> Verdict {
        let syndrome = CRC.syndrome(of: bits)
        let count = bits.bitCount
        // An all-call's code is not a repair (see `codeBits`).
        if bits.downlinkFormat == 11 { return .reject }
        guard let fix = longTable.correction(for: syndrome) else { return .reject }
        let firstRank = rank(of: Int(fix.first), confidence, count)
        var repaired = bits
        repaired.flipBit(Int(fix.first))
        if fix.second == 0 {
            if firstRank < rankLimit { return .admit }
            return firstRank < knownAddressRankLimit ? .admitIfKnown(UInt32(repaired.field(9, 32))) : .reject
        }
        guard allowTwoBits, firstRank < knownAddressRankLimit,
            rank(of: Int(fix.second), confidence, count) < knownAddressRankLimit
        else { return .reject }
        repaired.flipBit(Int(fix.second))
        return .admitIfKnown(UInt32(repaired.field(9, 32)))
    }

    /// The bit (1-based) whose flip leaves the DF11 `bits` with a clean parity apart from
    /// an interrogator code, or nil: their syndrome is that of one wrong bit outside the
    /// downlink format and the code (`loneErrorOutsideCode`), and that bit is among the
    /// `allCallRankLimit` least confident. The caller requires the repaired address to be
    /// known, and weighs the code as any DF11's.
    ///
    /// Such a repair is unambiguous: two lone errors' syndromes differ by less than 128 only
    /// when both fall in the code's own 7 bits, whose syndromes are the code bits
    /// themselves; so one wrong bit outside the code plus any code has one reading. Beyond
    /// one wrong bit, a code decided wrong plus one wrong bit elsewhere reads as such a
    /// repair with the wrong code (`AcceptancePolicy.allCallRepairNeedsChannelFit` guards
    /// against it); other mixes land on one of the 44 × 128 repairable syndromes once in
    /// 3,000, and must then name a confirmed aircraft.
    func allCallRepair(_ bits: ModeSBits, confidence: UnsafePointer<Int32>) -> Int? {
        guard bits.downlinkFormat == 11, let number = loneErrorOutsideCode(CRC.syndrome(of: bits)),
            rank(of: number, confidence, bits.bitCount) < allCallRankLimit
        else { return nil }
        return number
    }

    /// The bit among 6–49 (after the downlink format, before the code) whose lone error
    /// leaves `syndrome` within the code's 7 bits, or nil; none for a syndrome already
    /// within them.
    private func loneErrorOutsideCode(_ syndrome: UInt32) -> Int? {
        guard syndrome & 0xFFFF80 != 0 else { return nil }
        let number = Self.loneErrorAboveCode[Int(syndrome >> 7)]
        return number == 0 ? nil : Int(number)
    }

    /// For each value of a short reply's syndrome above the code's 7 bits (`syndrome >> 7`),
    /// the bit 6–49 whose lone error gives it, or 0: one load per DF11 slice whose parity
    /// fails (128 KiB, built once).
    private static let loneErrorAboveCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 1 << 17)
        for number in 6..<AcceptancePolicy.firstCodeBit {
            table[Int(SyndromeTable.shortLoneErrors[number] >> 7)] = UInt8(number)
        }
        return table
    }()

    /// How many of a short reply's least confident bits a DF11 repair may flip: as many
    /// as a long reply's repair of a known address (`knownAddressRankLimit`).
    var allCallRankLimit: Int { knownAddressRankLimit }

    /// The one or two bits (1-based, outside the downlink format; `second` 0 for one) whose
    /// flips make the long reply `bits` check, or nil when no such repair does.
    func repair(of bits: ModeSBits) -> (first: Int, second: Int)? {
        guard bits.bitCount == 112, let fix = longTable.correction(for: CRC.syndrome(of: bits)), fix.first > 5,
            fix.second == 0 || fix.second > 5
        else { return nil }
        return (Int(fix.first), Int(fix.second))
    }

    /// Whether any three wrong bits could explain the syndrome of the long reply `bits`: a
    /// cheap first look, asked before measuring the confidences `threeBitRepair` needs (a
    /// slice). `threeBitRepair` never repairs one that fails it, so it does not ask again.
    func threeBitRepairPossible(_ bits: ModeSBits) -> Bool {
        bits.bitCount == 112 && Self.threeErrorSyndromes.mayContain(CRC.syndrome(of: bits))
    }

    /// A three-bit repair of a DF17/18 whose syndrome no one- or two-bit repair explains,
    /// or nil. Tried only for replies whose address (as demodulated) is already confirmed,
    /// and never believed for a new one: three flips among 112 bits reach so many
    /// syndromes that only the known address, and bits that were all among the least
    /// confident, keep it honest. One of the three must be among the `threeBitCandidates`
    /// least confident bits, the other two among the `knownAddressRankLimit` least
    /// confident; and the repair must be the only one that fits (two different ones mean
    /// the noise, not the reply, is being fitted). Returns the repaired bits.
    func threeBitRepair(_ bits: ModeSBits, confidence: UnsafePointer<Int32>) -> ModeSBits? {
        let count = bits.bitCount
        guard count == 112 else { return nil }
        let syndrome = CRC.syndrome(of: bits)
        // The least confident bits outside the downlink format, in order.
        var order = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var found: (Int, Int, Int)?
        return withUnsafeMutableBytes(of: &order) { orderBytes -> ModeSBits? in
            let weakest = orderBytes.bindMemory(to: Int.self)
            let taken = Self.leastConfident(
                confidence, bits: 6...count,
                into: UnsafeMutableBufferPointer(rebasing: weakest[..<Self.threeBitCandidates]))
            for index in 0..<taken {
                let first = weakest[index]
                guard let fix = longTable.correction(for: syndrome ^ singleSyndromes[first]), fix.second != 0,
                    Int(fix.first) != first, Int(fix.second) != first,
                    rank(of: Int(fix.first), confidence, count) < knownAddressRankLimit,
                    rank(of: Int(fix.second), confidence, count) < knownAddressRankLimit
                else { continue }
                let candidate = Self.ordered(first, Int(fix.first), Int(fix.second))
                if let previous = found {
                    if previous != candidate { return nil }
                } else {
                    found = candidate
                }
            }
            guard let (a, b, c) = found else { return nil }
            var repaired = bits
            repaired.flipBit(a)
            repaired.flipBit(b)
            repaired.flipBit(c)
            return CRC.syndrome(of: repaired) == 0 ? repaired : nil
        }
    }

    /// Writes the numbers (1-based) of the least confident of `bits` to `weakest`, as many as
    /// it holds, weakest first (of equal confidences the earlier bit), and returns how many.
    static func leastConfident(
        _ confidence: UnsafePointer<Int32>, bits: ClosedRange<Int>,
        into weakest: UnsafeMutableBufferPointer<Int>
    ) -> Int {
        let limit = weakest.count
        var taken = 0
        for number in bits {
            let score = confidence[number - 1]
            // Insertion into a short sorted list.
            var slot = min(taken, limit)
            while slot > 0, confidence[weakest[slot - 1] - 1] > score {
                if slot < limit { weakest[slot] = weakest[slot - 1] }
                slot -= 1
            }
            if slot < limit {
                weakest[slot] = number
                taken = min(taken + 1, limit)
            }
        }
        return taken
    }

    /// A one-bit repair of an address/parity reply (DF0/4/5/16/20/21), whose parity is the
    /// CRC with the address laid over it, so a wrong bit just names another address: the
    /// bit (1-based) whose flip makes the parity name an address `isKnown` accepts, or nil.
    /// Only the `addressParityCandidates` least confident bits are tried (outside the
    /// downlink format), and exactly one may fit. Each try matches one of a few hundred
    /// known addresses among 2^24 by chance, so a slice of noise is "repaired" about once
    /// in 10,000 tries before the caller's firmness check, which noise seldom passes.
    func addressParityRepair(
        _ bits: ModeSBits, confidence: UnsafePointer<Int32>,
        isKnown: (UInt32) -> Bool
    ) -> Int? {
        let count = bits.bitCount
        let syndrome = CRC.syndrome(of: bits)
        var result: Int?
        var tried = 0
        var previousScore = Int32.min
        var previousNumber = 0
        // The least confident bits in order, without sorting: each pass takes the next one
        // up (few passes, few bits).
        while tried < Self.addressParityCandidates {
            var next = 0
            var nextScore = Int32.max
            for number in 6...count {
                let score = confidence[number - 1]
                let after = score > previousScore || (score == previousScore && number > previousNumber)
                if after, score < nextScore || (score == nextScore && number < next) {
                    next = number
                    nextScore = score
                }
            }
            guard next > 0 else { break }
            previousScore = nextScore
            previousNumber = next
            tried += 1
            let single = count == 112 ? singleSyndromes[next] : shortSingleSyndromes[next]
            if isKnown(syndrome ^ single) {
                if result != nil { return nil }
                result = next
            }
        }
        return result
    }

    /// Whether an address/parity reply was decided firmly enough to be believed: its
    /// parity only says "some address", so the bits themselves must look like one reply.
    /// Fewer than one bit in eight may score under a quarter of `typicalScore` (the score
    /// a clean bit of this reply's amplitude would get). A slice of noise, or a window
    /// half on noise and half on another reply, has far more.
    /// `decidedAtRails` (a 0-based bit index) says whether the clipping decides a bit
    /// (`ClippedBits`): such a bit is not weak, whatever its score.
    func firmEnough(
        _ confidence: UnsafePointer<Int32>, count: Int, typicalScore: Int32,
        decidedAtRails: (Int) -> Bool = { _ in false }
    ) -> Bool {
        let limit = typicalScore / 4
        var weak = 0
        for index in 0..<count where confidence[index] < limit && !decidedAtRails(index) { weak += 1 }
        return weak * 8 < count
    }

    /// How the 7 interrogator-code bits of a DF11 (its last 7, which nothing checks) were
    /// decided, from each bit's confidence: `weak`, a mask of those below half the reply's
    /// mean confidence (noise or an overlap pushed their scores near zero, so any of them
    /// may be wrong) and below `firm`, with the value each has in the code (the last bit
    /// is 1); and `overstated`, whether one is above twice the mean (a real reply's bits
    /// are alike, while a stronger overlapping reply lifts the bits it covers, and can flip
    /// one firmly). `firm`: a confidence that no bit at or above it counts as weak (see
    /// `squitterFirmScore`; by default every bit below half the mean does).
    func codeBits(
        _ confidence: UnsafePointer<Int32>, count: Int,
        firm: Int32 = .max
    ) -> (weak: Int, overstated: Bool) {
        var total = 0
        for index in 0..<count { total += Int(confidence[index]) }
        var weak = 0
        var overstated = false
        for number in (count - 6)...count {
            let scaled = count * Int(confidence[number - 1])
            if 2 * scaled < total, confidence[number - 1] < firm { weak |= 1 << (count - number) }
            if scaled > 2 * total { overstated = true }
        }
        return (weak, overstated)
    }

    /// Floors of on/off difference (see `squitterFirmScore`) from which a bit of code 0 is
    /// never weak.
    static let squitterFirmFloors: Int64 = 5

    /// The slicer confidence from which a code bit of a DF11 decided as code 0 is not weak
    /// (`codeBits`' `firm`): a bit whose chips differ by five noise floors (`floor`; a bit
    /// score is `bitScale` times the on/off difference). Half the reply's mean is the only
    /// line for a reply near the noise, but a strong reply's bits score unevenly without
    /// any doubt about them: an echo or the converter's rails take a share of some bits'
    /// difference, and its acquisition squitters (code 0, the most common reply) were
    /// refused for a weak bit whose flip gives a station's code. Noise does not move a
    /// decision by five floors. An echo can: sparing every code's bits let station codes
    /// decided wrong through (five more false frames on the dense sky), sparing code 0's
    /// did not. At three floors false frames began to pass even for code 0; five keeps a
    /// margin from there.
    static func squitterFirmScore(floor: UInt32, bitScale: Int32) -> Int32 {
        Int32(clamping: squitterFirmFloors * Int64(floor) * Int64(bitScale))
    }

    /// Whether the last seven bits of a DF11 (its interrogator code, which nothing checks)
    /// were each decided firmly: every one scoring at least half of `typicalScore`. Noise
    /// that flips a code bit of a clean reply leaves that bit, and usually its neighbours,
    /// near zero; a reply whose code is believed only because its address is known must
    /// show none of that.
    func codeFirm(_ confidence: UnsafePointer<Int32>, count: Int, typicalScore: Int32) -> Bool {
        let limit = typicalScore / 2
        for index in max(0, count - 7)..<count where confidence[index] < limit { return false }
        return true
    }

    /// Three distinct bit numbers in ascending order, so the same repair found from
    /// different starting bits compares equal.
    private static func ordered(_ a: Int, _ b: Int, _ c: Int) -> (Int, Int, Int) {
        let low = min(a, b, c)
        let high = max(a, b, c)
        return (low, a + b + c - low - high, high)
    }

    /// How many bits were decided with less confidence than bit `number` (1-based).
    private func rank(of number: Int, _ confidence: UnsafePointer<Int32>, _ count: Int) -> Int {
        let own = confidence[number - 1]
        var weaker = 0
        for index in 0..<count where confidence[index] < own { weaker += 1 }
        return weaker
    }
}
