import ModeS

/// The tests that turn a start away before any slice: the starts a reply cannot begin at
/// (the shadow of a stronger preamble, an uneven preamble, a quiet tail or head) and the
/// start left to the better-timed one after it. They cost a few comparisons each, against
/// several slicing attempts (and channel fits) that such starts would take and never decode.
extension AcceptancePolicy {
    /// Whether a candidate should be left to the next start (2.4 MS/s only): when that
    /// start's best preamble scores more than an eighth higher, this one is most likely
    /// the same reply a sample early, and slicing the better-timed start is enough.
    /// (At 2.0 MS/s a reply half a sample off fits the later start's preamble better but
    /// slices only from the earlier one, so there is no deferring.)
    static func defersToNextStart(score: Int32, nextScore: Int32?) -> Bool {
        guard let nextScore else { return false }
        return Int64(nextScore) * 16 > Int64(score) * 18
    }

    /// The shadow test: whether a start should not be sliced because a preamble 3.5 µs later (at
    /// the gate's `shadowOffsets`) is much stronger. Such a start is nearly always the shadow of
    /// that preamble: the later reply's first two pulses sit where this start's last two belong,
    /// and its quiet chips where this start's are, so noise or another reply's data in front of it
    /// supplies the rest. Its slices fail (on a dense sky about one start in thirteen that reaches
    /// slicing is such a shadow), while the later reply is examined at its own start. A real reply
    /// here would be buried from its preamble on under the stronger one: its start is still kept
    /// for the search beneath that reply once it is decoded and cancelled. The gate's contrasts
    /// (`contrast`, `laterContrast`: 1.5 times) pick the few starts worth scoring; the preamble
    /// scores (`score`, `laterScore`: twice) decide, since near the noise the contrast alone would
    /// also turn away weak replies whose own pulses lift the later one.
    static func shadowsStrongerPreamble(
        contrast: Int32, laterContrast: Int32,
        scores: () -> (score: Int32, laterScore: Int32)
    ) -> Bool {
        guard Int64(laterContrast) * 16 > Int64(contrast) * 24 else { return false }
        let (score, laterScore) = scores()
        return Int64(laterScore) > 2 * Int64(score)
    }

    /// The uneven-preamble test: whether a start whose preamble has one pair of pulses nearly empty
    /// is not sliced. A transponder sends the four pulses alike, so a reply's two pairs (0 and 1
    /// µs, 3.5 and 4.5 µs: `strong`, the louder pair's level above the floor, and `weak`) differ
    /// only by noise, which cannot bring one below an eighth of the other once the louder stands
    /// four floors above the floor. Starts this uneven lie half on another signal and half on
    /// noise: before a reply, whose first pulses fill their last pair; on a reply's last preamble
    /// pulses or its data; on a Mode A/C reply's pulses. Their slices almost never decode, and on a
    /// dense sky they are many (a fifth of all slicing attempts went to them). A reply whose one
    /// pair another reply's pulses make eight times louder lies beneath that reply: its start stays
    /// a failed start for the search beneath it, as a shadow's does (the shadow test).
    /// (`PreambleDetector.isLopsided` asks a quarter of repairs and coherent slices, which must be
    /// surer: as a rule for slicing at all a quarter turned away replies that another reply
    /// overlapped, 10 on the dense test sky.)
    static func preambleTooUneven(strong: Double, weak: Double, floor: UInt32) -> Bool {
        PreambleDetector.pairsDiffer(strong: strong, weak: weak, floor: floor, by: 8)
    }

    /// The quiet-tail test: whether a start is too quiet from 27 µs on to be a reply's, and is not
    /// sliced. Every bit of a reply puts a pulse in one of its two chips, through bit 56 at least;
    /// a Mode A/C reply (pulses on a 1.45 µs grid, over at most 25 µs from its first) passes the
    /// preamble gate at several of its pulses, and is over before the reply's bit 20 (`tailBits`,
    /// 27 µs after the start). Of those 37 bits a reply leaves fewer than `minimumLoudTailBits`
    /// loud only when something cancels most of its pulses; noise alone makes about one in ten loud
    /// at `tailLimit`. `loudBits` counts them (see `BitSlicer.loudBits`).
    ///
    /// On a 300-aircraft sky with Mode A/C replies, about two thirds of the starts whose every
    /// slice failed are such; refusing them costs nothing but this count.
    static func tailTooQuiet(
        loudBits: (_ limit: Double, _ enough: Int) -> Int, amplitude: Double,
        floor: UInt32
    ) -> Bool {
        fewerLoud(than: minimumLoudTailBits, loudBits: loudBits, amplitude: amplitude, floor: floor)
    }

    /// The bits the quiet-tail test looks at (0-based): from 27 µs after the start to the end of a
    /// short reply.
    static let tailBits = 19..<56

    /// How many of `tailBits` a reply leaves loud at least: a third.
    static let minimumLoudTailBits = 12

    /// The quiet-head test: whether a start is too quiet in its first 19 bits (`headBits`, up to
    /// where the quiet-tail test's begin) to be a reply's, and is not sliced. A reply leaves nearly
    /// all of them loud, as it does its tail. A start that passed the quiet-tail test with a quiet
    /// head has a reply beginning further on (loud from 27 µs), and what passed for its preamble
    /// was a few pulses before it: a Mode A/C reply's last ones, the end of another reply, noise.
    /// Noise alone makes about one bit in ten loud at `tailLimit`, so fewer than
    /// `minimumLoudHeadBits` of 19 turns away about nine such starts in ten; on the simulated
    /// streams it never refused a reply's own start. Asked of the stream's starts only: in a
    /// residual, where a cancelled reply leaves stretches of near silence, it saved nothing.
    static func headTooQuiet(
        loudBits: (_ limit: Double, _ enough: Int) -> Int, amplitude: Double,
        floor: UInt32
    ) -> Bool {
        fewerLoud(than: minimumLoudHeadBits, loudBits: loudBits, amplitude: amplitude, floor: floor)
    }

    /// The bits the quiet-head test looks at (0-based): from the end of the preamble (8 µs) to 27
    /// µs.
    static let headBits = 0..<19

    /// How many of `headBits` a reply leaves loud at least.
    static let minimumLoudHeadBits = 4

    /// Whether `loudBits` counts fewer than `minimum` bits loud at `tailLimit` (the quiet-tail and
    /// quiet-head tests).
    private static func fewerLoud(
        than minimum: Int, loudBits: (_ limit: Double, _ enough: Int) -> Int,
        amplitude: Double, floor: UInt32
    ) -> Bool {
        loudBits(tailLimit(amplitude: amplitude, floor: floor), minimum) < minimum
    }

    /// The level a chip of the quiet-tail and quiet-head tests' bits must average above to count as
    /// loud: twice the floor, which noise alone reaches in about one chip in twenty and a weak
    /// reply beneath a strong Mode A/C reply still often; for a start whose pulses stand less than
    /// the floor above it (the floor is a running estimate, overstated at the start of a stream),
    /// halfway up to its pulses.
    static func tailLimit(amplitude: Double, floor: UInt32) -> Double {
        Double(floor) + min(Double(floor), max(0, amplitude - Double(floor)) / 2)
    }
}
