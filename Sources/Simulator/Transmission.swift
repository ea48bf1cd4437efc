import ModeS

/// One message on air: when it starts, who sent it, what it says and how strong it is.
public struct Transmission: Sendable {
    /// Seconds from the start of the recording to the leading edge of the first preamble pulse.
    public var time: Double
    /// Index of the sender in the scenario's aircraft.
    public var aircraft: Int
    /// The message.
    public var bits: ModeSBits
    /// Signal-to-noise ratio as DESIGN defines it (mean power of the noise-free burst over
    /// its duration / complex noise power), dB.
    public var snrDb: Double
    /// Carrier frequency offset from the receiver's centre, Hz.
    public var frequencyOffsetHz: Double
    /// Carrier phase at the first preamble pulse, radians.
    public var phase: Double
    /// A delayed copy of the burst from a reflection, if any (see `Multipath`).
    public var echo: Echo? = nil
    /// Whether the burst overlaps another burst in time (set once the schedule is complete).
    public var overlap: Bool = false

    /// Air time of the burst: 8 µs preamble plus 1 µs per bit.
    public var duration: Double { (8 + Double(bits.bitCount)) * 1e-6 }
    /// When the burst ends.
    public var end: Double { time + duration }
}
