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

    /// A frame from its parts.
    public init(bits: ModeSBits, address: UInt32, correctedBits: Int = 0,
                timestamp: UInt64 = 0, signalLevel: Double = 0) {
        self.bits = bits
        self.address = address
        self.correctedBits = correctedBits
        self.timestamp = timestamp
        self.signalLevel = signalLevel
    }

    /// The downlink format.
    public var downlinkFormat: Int { bits.downlinkFormat }
}
