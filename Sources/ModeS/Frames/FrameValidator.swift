/// Decides whether 56 or 112 demodulated bits are a genuine Mode S message, repairing them
/// when the parity allows it safely.
///
/// - DF11/17/18 carry a real CRC: a zero syndrome is a clean message. DF11 may carry an
///   interrogator code in the low 7 bits of its parity, which is accepted as is.
/// - A non-zero syndrome is looked up in a `SyndromeTable`: one flipped bit for DF11/17/18,
///   two for DF17/18 only (more is unsafe: the code's distance would let noise "repair" into
///   a plausible message). A repaired DF11 is kept only if its address is already known.
/// - DF0/4/5/16/20/21 overlay the address on the parity, so they cannot be checked; the
///   recovered address must be in the `ICAOFilter` (unless `trustAddressParity` is set, for
///   input that was already checked elsewhere).
public struct FrameValidator: Sendable {
    /// Addresses recently confirmed by a real CRC.
    public private(set) var icaoFilter: ICAOFilter
    /// Accept address/parity formats without consulting the filter (for pre-checked input).
    public var trustAddressParity: Bool
    /// Allow two-bit repairs of DF17/18 (one-bit repairs are always allowed).
    public var allowTwoBitCorrection: Bool

    /// The shared one-bit table for DF11 (see `SyndromeTable.shortOneBit`).
    private let shortTable = SyndromeTable.shortOneBit
    /// The shared two-bit table for DF17/18 (see `SyndromeTable.longTwoBit`).
    private let longTable = SyndromeTable.longTwoBit

    /// A validator with an empty address filter.
    public init(
        filterExpiry: Double = 60, trustAddressParity: Bool = false,
        allowTwoBitCorrection: Bool = true
    ) {
        self.icaoFilter = ICAOFilter(expiry: filterExpiry)
        self.trustAddressParity = trustAddressParity
        self.allowTwoBitCorrection = allowTwoBitCorrection
    }

    /// The accepted (and possibly repaired) frame, or nil when `bits` is not a valid message.
    /// `time` is in seconds and drives the address filter's expiry.
    public mutating func validate(_ bits: ModeSBits, time: Double) -> Frame? {
        let df = bits.downlinkFormat
        guard bits.bitCount == ModeSBits.bitCount(forDownlinkFormat: df) else { return nil }
        let syndrome = CRC.syndrome(of: bits)
        switch df {
        case 17, 18:
            if syndrome == 0 {
                let address = UInt32(bits.field(9, 32))
                if df == 17 || bits.field(6, 8) == 0 { icaoFilter.confirm(address, at: time) }
                return Frame(bits: bits, address: address)
            }
            guard let fix = longTable.correction(for: syndrome),
                fix.bitCount == 1 || allowTwoBitCorrection
            else { return nil }
            var repaired = bits
            repaired.flipBit(Int(fix.first))
            if fix.second != 0 { repaired.flipBit(Int(fix.second)) }
            let address = UInt32(repaired.field(9, 32))
            if fix.bitCount == 1, df == 17 { icaoFilter.confirm(address, at: time) }
            return Frame(bits: repaired, address: address, correctedBits: fix.bitCount)
        case 11:
            let address = UInt32(bits.field(9, 32))
            // The low 7 bits may hold the interrogator identifier (II or SI code).
            if syndrome & 0xFFFF80 == 0 {
                icaoFilter.confirm(address, at: time)
                return Frame(bits: bits, address: address)
            }
            guard let fix = shortTable.correction(for: syndrome) else { return nil }
            var repaired = bits
            repaired.flipBit(Int(fix.first))
            let repairedAddress = UInt32(repaired.field(9, 32))
            guard icaoFilter.contains(repairedAddress, at: time) else { return nil }
            return Frame(bits: repaired, address: repairedAddress, correctedBits: 1)
        case 0, 4, 5, 16, 20, 21:
            let confirmed = icaoFilter.contains(syndrome, at: time)
            guard confirmed || trustAddressParity else { return nil }
            return Frame(bits: bits, address: syndrome, parityVerified: confirmed)
        default:
            return nil
        }
    }
}
