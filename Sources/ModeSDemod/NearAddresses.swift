import ModeS

/// Every parity an address/parity reply from a seen aircraft can show with one wrong bit:
/// the aircraft's address XOR the syndrome of a lone error at each bit (outside the
/// downlink format), for short and long replies.
///
/// A noise slice seldom lands on one of these, so the demodulator asks here before spending
/// bit confidences on a one-bit repair (`RepairGate.addressParityRepair`). A few hundred
/// aircraft mark a few percent of the `ParityBitmap`, which is how often noise gets past.
struct NearAddresses {
    private var parities = ParityBitmap()

    /// An empty set.
    init() {}

    /// Marks every parity one wrong bit away from `address`.
    mutating func insert(_ address: UInt32) {
        // Bits 1...5 are the downlink format, which is never repaired.
        for syndrome in SyndromeTable.shortLoneErrors[6...] { parities.insert(address ^ syndrome) }
        for syndrome in SyndromeTable.longLoneErrors[6...] { parities.insert(address ^ syndrome) }
    }

    /// Whether `parity` may be a seen address with one wrong bit.
    @inline(__always)
    func mayContain(_ parity: UInt32) -> Bool {
        parities.mayContain(parity)
    }
}
