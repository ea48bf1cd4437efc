import ModeS

/// Mode A/C replies: the older secondary-radar replies every transponder still sends to the
/// many Mode A/C interrogations around it. They carry no Mode S message (the truth has none
/// of them) but fill the channel with pulses that pass a Mode S preamble test and land on
/// Mode S replies' bits.
///
/// A reply is two framing pulses 20.3 µs apart with up to 13 code pulses between them, every
/// 1.45 µs, each 0.45 µs wide; the code pulses in order are C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4
/// D4, which is also the order of a Mode S identity field.
package struct ModeACReplies: Sendable, Equatable {
    /// Mean replies per aircraft per second (Poisson arrivals).
    package var ratePerAircraft: Double

    /// Replies at `ratePerAircraft` per aircraft per second.
    package init(ratePerAircraft: Double) {
        self.ratePerAircraft = ratePerAircraft
    }

    /// Width of each pulse, microseconds.
    static let pulseWidthUs = 0.45
    /// Spacing of the pulse positions, microseconds.
    static let spacingUs = 1.45
    /// The second framing pulse, microseconds after the first.
    static let framingUs = 20.3
    /// A reply's air time, seconds.
    static let duration = (framingUs + pulseWidthUs) * 1e-6
}

/// One Mode A/C reply on air.
package struct ModeACReply: Sendable {
    /// Leading edge of the first framing pulse, seconds from the start of the recording.
    package var time: Double
    /// The 13 code-pulse positions (bit 12 = C1 ... bit 0 = D4), the X position never set.
    package var code: UInt32
    /// SNR as for a Mode S reply of the same pulse level, dB.
    package var snrDb: Double
    /// Carrier offset, Hz.
    package var frequencyOffsetHz: Double
    /// Carrier phase at the first pulse, radians.
    package var phase: Double

    /// The start times (µs after the first framing pulse) of the reply's pulses, in order.
    package var pulseStarts: [Double] {
        var starts = [0.0]
        for position in 1...13 where (code >> UInt32(13 - position)) & 1 == 1 && position != 7 {
            starts.append(Double(position) * ModeACReplies.spacingUs)
        }
        starts.append(ModeACReplies.framingUs)
        return starts
    }

    /// A Mode A reply with `squawk`, or a Mode C reply with `altitudeFt`, as pulse positions.
    static func code(squawk: String?, altitudeFt: Int?) -> UInt32 {
        if let squawk, let id = IdentityCode.encode(squawk: squawk) { return id & ~(1 << 6) }
        if let altitudeFt, let ac = AltitudeCode.acField(max(-1000, altitudeFt), forceGillham: true) {
            // The Mode S field's M (X position) and Q (D1 position) bits are no pulses in Mode C.
            return UInt32(ac) & ~(1 << 6) & ~(1 << 4)
        }
        return 0
    }
}
