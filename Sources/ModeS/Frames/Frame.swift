/// One received Mode S message after its parity was checked (and, where allowed, repaired):
/// what the demodulator hands to the decoder, and what Beast/AVR outputs send on.
public struct Frame: Sendable, Hashable {
    /// The message bits, repaired if `correctedBits` > 0.
    public var bits: ModeSBits
    /// The transponder address: from the AA field, or recovered from the parity field.
    public var address: UInt32
    /// How many bits error correction flipped (0, 1 or 2).
    public var correctedBits: Int
    /// Time of the first preamble pulse in ticks of a 12 MHz clock (the Beast convention),
    /// counted from the start of the stream.
    public var timestamp: UInt64
    /// Signal level of the message in dB relative to full scale (0 is the loudest possible).
    public var signalLevel: Double
    /// True when the parity proved the frame genuine: a CRC that checked (DF11/17/18), or an
    /// address/parity frame whose recovered address was recently confirmed. False only for
    /// address/parity frames accepted on trust (input that was checked elsewhere).
    public var parityVerified: Bool
    /// True for a multilateration result: a message a multilateration server made up from
    /// the position it worked out, not one any receiver heard. Such frames are tracked as
    /// `mlat` and never sent on as if received.
    public var isMultilaterated: Bool

    /// A frame from its parts.
    public init(
        bits: ModeSBits, address: UInt32, correctedBits: Int = 0,
        timestamp: UInt64 = 0, signalLevel: Double = 0, parityVerified: Bool = true,
        isMultilaterated: Bool = false
    ) {
        self.bits = bits
        self.address = address
        self.correctedBits = correctedBits
        self.timestamp = timestamp
        self.signalLevel = signalLevel
        self.parityVerified = parityVerified
        self.isMultilaterated = isMultilaterated
    }

    /// The downlink format.
    public var downlinkFormat: Int { bits.downlinkFormat }
}
