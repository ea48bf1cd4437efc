import ModeS

/// Measurements of a candidate's magnitudes that reveal another signal on top of the reply
/// being decoded: the facts `AcceptancePolicy` asks for before believing bits that no CRC
/// fully checks (a DF11's interrogator code) or before slicing coherently.
///
/// Each is a few comparisons against levels derived from the reply's own pulse amplitude,
/// and none allocates.
struct InterferenceChecks {
    /// The reply model: spans at this sample rate.
    let kernels: ReplyKernels
    /// Measures the reply's pulse amplitude.
    let detector: PreambleDetector
    /// Reads the chips a reply's bits leave empty.
    let slicer: BitSlicer

    /// Whether any of the first `count` samples exceeds `limit` (never, when the limit is
    /// beyond the magnitude scale).
    @inline(__always)
    func anySample(_ samples: UnsafePointer<UInt16>, count: Int, above limit: Double) -> Bool {
        guard limit < 65535 else { return false }
        let threshold = UInt16(limit)
        for index in 0..<count where samples[index] > threshold { return true }
        return false
    }

    /// Whether another signal overlaps the reply at `samples`: a sample more than twice its
    /// pulse amplitude above the floor (noise alone rarely gets there except for the weakest
    /// replies), or pulse energy in the chips its bits leave empty. `onlyFrom` (a 1-based
    /// bit): both are looked for from that bit to the end only; nil: the first over the
    /// whole span, the second over the last 10 bits.
    func overlapped(
        _ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32,
        onlyFrom firstBit: Int? = nil
    ) -> Bool {
        let amplitude = detector.pulseAmplitude(at: samples, phase: phase) - Double(floor)
        let limit = Double(floor) + 2 * max(0, amplitude)
        let first = firstBit.map { kernels.firstSample(ofBit: $0) } ?? 0
        if anySample(samples + first, count: kernels.span(bitCount: bits.bitCount) - first, above: limit) {
            return true
        }
        // Also an equally strong (or clipped) overlap: pulses where the reply has none.
        // Only the last bits (the interrogator code and its neighbours) matter here, and the
        // band-limited pulses leak up to about half their level into empty chips, so a chip
        // counts as loud at three quarters of the pulse level.
        let offLimit = Double(floor) + 0.75 * max(0, amplitude)
        return slicer.loudOffChips(
            bits, samples, phase: phase, limit: offLimit,
            from: (firstBit ?? bits.bitCount - 9) - 1) >= 1
    }

    /// The stricter checks for a DF11 with a non-zero interrogator code (a reply to a ground
    /// station): noise or an overlap flips an acquisition squitter's code 0 into one of the
    /// station codes that `InterrogatorCodes` has confirmed as easily as into any other.
    /// - The reply must stand at least twice the floor above the floor: weaker replies have
    ///   so many near-zero bit scores that one of the 7 code bits is a coin toss too often.
    /// - Fewer than two of its last 12 bits may have their empty chip at 9/16 of the pulse
    ///   level (the general check allows 3/4, for all formats): a reply half as strong
    ///   running across the code bits reaches that, band-limited leakage of the reply's own
    ///   pulses into one empty chip now and then does too, into two rarely.
    func nonZeroCodeBelievable(
        _ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int,
        floor: UInt32
    ) -> Bool {
        let level = max(0, detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))
        guard level >= 2 * Double(floor) else { return false }
        let offLimit = Double(floor) + 9.0 / 16.0 * level
        return slicer.loudOffChips(bits, samples, phase: phase, limit: offLimit, from: bits.bitCount - 12) < 2
    }

    /// Whether a sample in the 8 (about 3 µs) right after a DF11 is louder than the reply's
    /// own pulses: the preamble of a stronger reply starting during the reply's last bits
    /// or just after them, whose first pulses (or their band-limited edges) land on the
    /// interrogator-code bits without looking like an overlap inside the reply itself.
    func followedClosely(_ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        let level = max(0, detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))
        // The buffer always holds a long reply's span past a start, so this stays inside.
        let end = kernels.span(bitCount: 56)
        return anySample(samples + end, count: 8, above: Double(floor) + level)
    }

    /// Whether what `followedClosely` found after a DF11 starts late: the first
    /// `followerGapSamples` of its window stay below half the reply's pulse level above the
    /// floor. That window begins a sample or two after the reply's last chip, so these
    /// samples hold the end of the reply's own ringing and nothing else: a pulse that lands
    /// on the code bits, or its band-limited edge, leaves the samples right after them loud.
    /// Half the level keeps the ringing out (it has decayed well below that there) while a
    /// pulse of any signal as strong as the reply reaches above it.
    func followerStartsLate(_ samples: UnsafePointer<UInt16>, phase: Int, floor: UInt32) -> Bool {
        let level = max(0, detector.pulseAmplitude(at: samples, phase: phase) - Double(floor))
        let end = kernels.span(bitCount: 56)
        return !anySample(samples + end, count: Self.followerGapSamples, above: Double(floor) + level / 2)
    }

    /// The quiet samples `followerStartsLate` asks for after a DF11: three, about 1.25 µs at
    /// 2.4 MS/s (1.5 µs at 2.0 MS/s), from 0.7 to 1 µs after the reply's end. A Mode S reply
    /// starting over bits 52 to 54 puts its third or fourth preamble pulse there, and one
    /// starting on the last bit or later its first or second. One starting earlier keeps its
    /// whole preamble within the code, and one starting on bit 55 its first two pulses on the
    /// last two bits: a bit such pulses turn leaves the reply's own pulse in the chip the
    /// reading calls empty, which `overlapped` looks for. A Mode A/C reply (pulses 1.45 µs
    /// apart) that begins after the gap has touched nothing.
    static let followerGapSamples = 3

    /// Whether the plain decisions at `phase` agree with `bits` on a DF11's interrogator
    /// code (its last 7 bits). Feedback can propagate one wrong decision into bits nothing
    /// checks; plain decisions cannot.
    func plainAgreesOnCode(_ bits: ModeSBits, _ samples: UnsafePointer<UInt16>, phase: Int) -> Bool {
        guard let plain = slicer.slice(samples, phase: phase, feedback: 0), plain.bitCount == 56 else { return false }
        return plain.field(50, 56) == bits.field(50, 56)
    }

    /// Whether a reply `level` above the floor at `samples` has a sample louder than the
    /// stronger of two overlapping replies could make it: together they reach at most twice
    /// its level. Beneath a stronger reply a carrier cannot be fitted.
    func louderThanTwoReplies(_ samples: UnsafePointer<UInt16>, bitCount: Int, level: Double, floor: UInt32) -> Bool {
        anySample(samples, count: kernels.span(bitCount: bitCount), above: Double(floor) + 2 * level)
    }
}
