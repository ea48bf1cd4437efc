import ModeS

/// One message on air: when it starts, who sent it, what it says and how strong it is.
package struct Transmission: Sendable {
    /// Seconds from the start of the recording to the leading edge of the first preamble pulse.
    package var time: Double
    /// Index of the sender in the scenario's aircraft.
    package var aircraft: Int
    /// The message.
    package var bits: ModeSBits
    /// Signal-to-noise ratio as DESIGN defines it (mean power of the noise-free burst over
    /// its duration / complex noise power), dB.
    package var snrDb: Double
    /// Carrier frequency offset from the receiver's centre, Hz.
    package var frequencyOffsetHz: Double
    /// Carrier phase at the first preamble pulse, radians.
    package var phase: Double
    /// A delayed copy of the burst from a reflection, if any (see `Multipath`).
    package var echo: Echo? = nil
    /// Whether the burst overlaps another burst in time (set once the schedule is complete).
    package var overlap: Bool = false

    /// Air time of the burst: 8 µs preamble plus 1 µs per bit.
    package var duration: Double { (8 + Double(bits.bitCount)) * 1e-6 }
    /// When the burst ends.
    package var end: Double { time + duration }
}
