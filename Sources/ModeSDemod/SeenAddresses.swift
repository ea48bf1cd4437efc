import ModeS

/// Every transponder address the demodulator has accepted a DF11/17/18 frame from: a cheap
/// superset of the `FrameValidator`'s address filter (nothing here ever expires).
///
/// An address/parity reply can only be accepted for an address in the validator's filter,
/// so a noise slice whose parity yields an address not in this set can be dropped at once,
/// before the costlier checks that a plausible one gets. A fixed open-addressed table: no
/// allocation after creation; when it is full, every address counts as possibly seen,
/// which only costs time.
struct SeenAddresses {
    private var slots: [UInt32]
    private var count = 0
    private var sawZero = false

    /// A set with room for `capacity` addresses (rounded up to a power of two, kept at most
    /// half full so probes stay short).
    init(capacity: Int = 8192) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = [UInt32](repeating: 0, count: size)
    }

    /// Records `address`; returns whether it was new.
    @discardableResult
    mutating func insert(_ address: UInt32) -> Bool {
        if address == 0 {
            defer { sawZero = true }
            return !sawZero
        }
        guard 2 * count < slots.count else { return false }
        let mask = slots.count - 1
        var slot = Self.slot(address, mask)
        while slots[slot] != 0 {
            if slots[slot] == address { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = address
        count += 1
        return true
    }

    /// Whether `address` may have been seen.
    @inline(__always)
    func mayContain(_ address: UInt32) -> Bool {
        if address == 0 { return sawZero }
        if 2 * count >= slots.count { return true }
        let mask = slots.count - 1
        var slot = Self.slot(address, mask)
        while true {
            let value = slots[slot]
            if value == address { return true }
            if value == 0 { return false }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private static func slot(_ address: UInt32, _ mask: Int) -> Int {
        MultiplicativeHash.of(address, bits: 24) & mask
    }
}
