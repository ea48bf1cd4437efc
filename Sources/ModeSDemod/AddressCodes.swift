import ModeS

/// The interrogator codes each aircraft has answered with in the DF11 all-call replies
/// accepted so far: which ground stations reach it.
///
/// Nothing checks a DF11's 7 code bits, so the acceptance rules refuse a station's code whenever
/// noise or another reply may have turned one of them (`AcceptancePolicy`: the all-call test and
/// the unambiguous-code test). But an aircraft answers the same few stations over and over, one
/// reply each sweep of their antennas, so a code it has already answered with is far likelier to be
/// read right than a code it never used. `standing` says how far a code is this aircraft's own; the
/// rules then waive some of those doubts for it.
///
/// A code one bit from another code the aircraft answered with (code 0, which every
/// aircraft sends, included) is never its own here: that other code, misread by one bit,
/// would look exactly like it.
///
/// A fixed table (`capacity` entries, no allocation after creation). An address is looked
/// up in the `probe` entries from its hash on; a new one takes the least recently heard of
/// them, so a full table forgets the aircraft heard least recently.
struct AddressCodes {
    /// How far a code is an aircraft's own, weakest first.
    enum Standing: Int, Comparable {
        /// Never heard from this aircraft, or one bit from a code that was.
        case unknown
        /// Heard from this aircraft once, and no code one bit from it.
        case once
        /// Heard from this aircraft more than once, and no code one bit from it.
        case repeated

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// An aircraft unheard this many seconds is forgotten: it has left the sky, or its
    /// route the reach of the stations it answered.
    static let keepWindow = 600.0

    private struct Entry {
        var address: UInt32 = 0
        /// Bit c: code c heard at least once.
        var once: UInt128 = 0
        /// Bit c: code c heard at least twice.
        var twice: UInt128 = 0
        var lastSeen = -Double.infinity
    }

    private var entries: [Entry]
    /// How many entries from an address's hash on may hold it.
    private static let probe = 8

    /// A table for about `capacity` aircraft (rounded up to a power of two).
    init(capacity: Int = 2048) {
        var size = Self.probe
        while size < capacity { size <<= 1 }
        entries = [Entry](repeating: Entry(), count: size)
    }

    /// Records a DF11 from `address` with interrogator `code` (0–127) at `time` (seconds).
    mutating func record(_ code: Int, address: UInt32, time: Double) {
        let bit = UInt128(1) << UInt128(code & 127)
        let index = slot(of: address, at: time) ?? slotToReplace(for: address, at: time)
        var entry = entries[index]
        if entry.address != address || time - entry.lastSeen > Self.keepWindow {
            entry = Entry(address: address)
        }
        entry.twice |= entry.once & bit
        entry.once |= bit
        entry.lastSeen = time
        entries[index] = entry
    }

    /// How far `code` is the own code of `address` at `time` (see `Standing`).
    func standing(of code: Int, address: UInt32, at time: Double) -> Standing {
        guard let index = slot(of: address, at: time) else { return .unknown }
        let entry = entries[index]
        let bit = UInt128(1) << UInt128(code & 127)
        guard entry.once & bit != 0 else { return .unknown }
        // The seven codes one bit away.
        for shift in 0..<7 where entry.once & (UInt128(1) << UInt128((code & 127) ^ (1 << shift))) != 0 {
            return .unknown
        }
        return entry.twice & bit != 0 ? .repeated : .once
    }

    /// The entry holding `address` and heard within `keepWindow` of `time`, if any.
    private func slot(of address: UInt32, at time: Double) -> Int? {
        let mask = entries.count - 1
        let first = Self.hash(address)
        for step in 0..<Self.probe {
            let index = (first + step) & mask
            if entries[index].address == address, time - entries[index].lastSeen <= Self.keepWindow {
                return index
            }
        }
        return nil
    }

    /// The entry a new `address` takes: the least recently heard of its probe entries (an
    /// empty one has never been heard).
    private func slotToReplace(for address: UInt32, at time: Double) -> Int {
        let mask = entries.count - 1
        let first = Self.hash(address)
        var oldest = first & mask
        for step in 1..<Self.probe {
            let index = (first + step) & mask
            if entries[index].lastSeen < entries[oldest].lastSeen { oldest = index }
        }
        return oldest
    }

    @inline(__always)
    private static func hash(_ address: UInt32) -> Int {
        MultiplicativeHash.of(address, bits: 24)
    }
}
