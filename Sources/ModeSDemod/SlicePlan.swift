import IQ
import ModeS

/// The ordered slice attempts for one candidate: plain decisions at each phase worth
/// trying, then the two kinds of decision feedback at the best one or two phases (amplitude
/// then smear, per phase), then the most likely sequence at the best phase (at 2.0 MS/s at
/// the best two).
///
/// Cheap attempts come first because most replies are decided well by plain slicing; the
/// later ones only run when every earlier one failed. The plan is a few integers, and the
/// attempt at an index is computed on demand, so building it per candidate allocates
/// nothing.
struct SlicePlan: Equatable {
    /// How many of the best phases get a plain slice.
    let plainRanks: Int
    /// How many of the best phases get the two feedback slices (0, 1 or 2).
    let feedbackRanks: Int
    /// How many of the best phases are finally decided as a sequence (0, 1 or 2).
    let sequenceRanks: Int

    /// How many attempts the plan holds.
    var count: Int { plainRanks + 2 * feedbackRanks + sequenceRanks }

    /// The attempt at `index` (0..<count).
    @inline(__always)
    subscript(index: Int) -> SliceAttempt {
        if index < plainRanks { return SliceAttempt(rank: index, slicer: .plain) }
        let feedbackIndex = index - plainRanks
        if feedbackIndex < 2 * feedbackRanks {
            return SliceAttempt(
                rank: feedbackIndex / 2,
                slicer: feedbackIndex % 2 == 0 ? .amplitudeFeedback : .smearFeedback)
        }
        return SliceAttempt(rank: feedbackIndex - 2 * feedbackRanks, slicer: .sequence)
    }

    /// The plan for a candidate with `plainRanks` phases worth a plain slice (at least 1).
    /// - `feedbackRetry`, `sequenceRetry`: the demodulator's options.
    /// - `looksLikeOtherReplysData`: the best phase is strong and its window looks like the
    ///   data of another reply (`PreambleDetector.looksLikeDataWindow`). Feedback would only
    ///   decide that reply's bits again, at the wrong place, so it is left out (and with it
    ///   the sequence, which follows feedback); the plain slices still get their chance.
    /// - `sequenceWorthwhile`: see `sequenceWorthwhile(sampleRate:level:floor:)`.
    /// - `sequencePhases`: at how many of the phases that get feedback the sequence is tried
    ///   (see `sequencePhases(sampleRate:)`).
    init(
        plainRanks: Int, feedbackRetry: Bool, sequenceRetry: Bool, looksLikeOtherReplysData: Bool,
        sequenceWorthwhile: Bool, sequencePhases: Int = 1
    ) {
        self.plainRanks = plainRanks
        // Feedback at the best two phases at most: each feedback phase costs two more
        // slices of every candidate that fails, which most candidates (noise) do.
        feedbackRanks = feedbackRetry && !looksLikeOtherReplysData ? min(plainRanks, 2) : 0
        sequenceRanks = sequenceRetry && sequenceWorthwhile ? min(feedbackRanks, sequencePhases) : 0
    }

    /// At how many phases the sequence is tried: at 2.0 MS/s the best two. There a sample
    /// lasts a whole chip, the preamble's phases score much alike, and the best-scoring one
    /// is often not the reply's: the sequence at the second phase finds replies that every
    /// other attempt missed (on the simulated skies at 2.0 MS/s, 11 to 103 more a stream).
    /// At 2.4 MS/s the best phase is the reply's nearly always, and deciding a second phase
    /// as a sequence found as many replies as it lost.
    static func sequencePhases(sampleRate: SampleRate) -> Int {
        sampleRate == .twoMega ? 2 : 1
    }

    /// How many of a candidate's best phases get a plain slice: the best one always, and
    /// each further one (up to `maximum`, among the `count` that passed) while its preamble
    /// fits within a quarter as well as the best one's. A phase fitting much worse is the
    /// same noise (or the same reply at a worse timing) again and slicing it finds nothing.
    @inline(__always)
    static func plainRanks(count: Int, maximum: Int, score: (Int) -> Int32) -> Int {
        var ranks = 1
        while ranks < min(count, maximum), 4 * Int64(score(ranks)) >= 3 * Int64(score(0)) {
            ranks += 1
        }
        return ranks
    }

    /// Whether the sequence attempt can help a reply `level` above the `floor` (pulse
    /// amplitude at the best phase): at 2.4 MS/s only a weak reply (under four floors above
    /// the floor), whose chips noise blurs; a stronger one is decided well bit by bit there.
    /// At 2.0 MS/s a reply half a sample off blurs its chips into each other at any
    /// strength, so the sequence is always worth trying.
    static func sequenceWorthwhile(sampleRate: SampleRate, level: Int32, floor: UInt32) -> Bool {
        sampleRate == .twoMega || isWeak(level: level, floor: floor)
    }

    /// Whether a reply `level` above the `floor` is weak: under four floors above it, where
    /// noise blurs its chips and the slow attempts (the sequence, the channel fit's later
    /// starts) pay.
    static func isWeak(level: Int32, floor: UInt32) -> Bool {
        level < 4 * Int32(clamping: floor)
    }

    /// How far the loudest of the `span` samples from `samples` (at least 8) stands above the
    /// `floor`: where that is many times a reply's own level, another, much stronger signal
    /// shares the reply's window (see `fitWorthwhile` and `restartWorthwhile`).
    static func windowPeak(_ samples: UnsafePointer<UInt16>, span: Int, floor: UInt32) -> Int64 {
        var peak = SIMD8<UInt16>()
        var offset = 0
        while offset + 8 <= span {
            peak = pointwiseMax(peak, narrowLanes(samples, offset))
            offset += 8
        }
        // The last eight samples again, for a span that is not a multiple of eight.
        peak = pointwiseMax(peak, narrowLanes(samples, span - 8))
        return Int64(peak.max()) - Int64(floor)
    }

    /// Whether the channel fit is worth trying on a reply `level` above the floor whose
    /// window peaks `peak` above it (`windowPeak`): not where that peak is 8 times the level
    /// (10 times at 2.0 MS/s, where a reply straddling the samples shows a lower level).
    /// The fit models one reply through one channel; under a signal 18 dB stronger the
    /// taps it fits are that signal's edges, and the weak reply is found, if at all, in the
    /// residual once the strong one is decoded and cancelled. On the test streams such fits
    /// were an eighth of all fits on the dense and busy skies; they gave 3 frames in 20 s of
    /// the dense sky (43,544) and none on the others, near the noise or at 2.0 MS/s.
    static func fitWorthwhile(peak: Int64, level: Int32, sampleRate: SampleRate) -> Bool {
        peak < (sampleRate == .twoMega ? 10 : 8) * Int64(level)
    }

    /// Whether the channel fit's later starts (`StreamingDemodulator.restartedFitFrame`) are
    /// worth trying on a reply `level` above the floor whose window peaks `peak` above it: at
    /// 2.4 MS/s not where that peak is 4 times the level, where a weak reply's later starts
    /// have little to go on (the "reply" is then mostly the louder signal's edges and
    /// sidelobes): on a dense sky those were four fifths of the later starts, for 3 frames
    /// in 28,000. At 2.0 MS/s the same test lost 6 frames on two test streams, 3 of them at
    /// 6-9 dB, so there they always start again.
    static func restartWorthwhile(peak: Int64, level: Int32, sampleRate: SampleRate) -> Bool {
        sampleRate == .twoMega || peak < 4 * Int64(level)
    }

    /// Whether a reply `level` above the `floor` is faint: under two floors above it, where
    /// the channel fit also starts from a squitter slice with one of its least confident
    /// bits turned (see `StreamingDemodulator.turnedBitFitFrame`).
    static func isFaint(level: Int32, floor: UInt32) -> Bool {
        level < 2 * Int32(clamping: floor)
    }
}
