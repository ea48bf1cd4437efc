import ModeS

/// The interrogator codes (the II/SI code a DF11 all-call reply carries in the low 7 bits
/// of its parity) that the sky has shown to be in use.
///
/// Those 7 bits cannot be checked: one wrong bit there is just another code. But a ground
/// station interrogates every aircraft within its reach, so a real code comes back from many
/// aircraft within seconds, while a code made up by noise or an overlapping reply comes
/// from one aircraft, once. A non-zero code is therefore believed only once two different
/// aircraft have answered with it within `confirmWindow` seconds; it then stays believed
/// while replies keep coming (`keepWindow`). The first reply with a new code is held back,
/// which costs one frame per ground station when it first appears.
///
/// A fixed table of 128 entries, one per possible code: no allocation.
struct InterrogatorCodes {
    /// Two different aircraft within this many seconds confirm a code (a rotating radar
    /// sweeps the whole sky in 4–12 s; a busy sky has replies to it every fraction of one).
    static let confirmWindow = 15.0
    /// A confirmed code stays confirmed this long after its last reply.
    static let keepWindow = 60.0

    private struct Entry {
        var address: UInt32 = 0
        var lastSeen = -Double.infinity
        var confirmedUntil = -Double.infinity
    }

    private var entries = [Entry](repeating: Entry(), count: 128)

    /// Whether a reply with `code` would be believed at `time` without recording anything:
    /// code 0 (the acquisition squitter's, which every aircraft sends) always, any other
    /// while confirmed.
    func believes(_ code: Int, at time: Double) -> Bool {
        code == 0 || time <= entries[code & 127].confirmedUntil
    }

    /// Records a reply with `code` (1–127) from `address` at `time` (seconds) and says
    /// whether the code is believed.
    mutating func vouch(_ code: Int, address: UInt32, time: Double) -> Bool {
        var entry = entries[code & 127]
        defer { entries[code & 127] = entry }
        if time <= entry.confirmedUntil {
            entry.confirmedUntil = time + Self.keepWindow
            entry.address = address
            entry.lastSeen = time
            return true
        }
        let confirmed = address != entry.address && time - entry.lastSeen <= Self.confirmWindow
        entry.address = address
        entry.lastSeen = time
        if confirmed { entry.confirmedUntil = time + Self.keepWindow }
        return confirmed
    }
}
