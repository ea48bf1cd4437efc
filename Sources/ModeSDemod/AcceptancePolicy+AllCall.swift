import ModeS

/// The all-call test: whether a DF11's interrogator code, which no parity checks, may be
/// believed given what else lies over the reply and which slicer decided it.
extension AcceptancePolicy {
    /// The all-call test: whether a DF11 (all-call reply) is believed; other formats pass. Its
    /// interrogator code (the low 7 parity bits) cannot be checked at all: one wrong bit
    /// there is just another code, or no code. So it must not be `overlapped` by a much
    /// stronger reply (whose pulses flip bits firmly, beyond what confidences reveal), nor
    /// `followedClosely` by one whose first pulses land on the code; a non-zero code must
    /// be `codeBelievable` (see `StreamingDemodulator.nonZeroCodeBelievable`); and bits
    /// decided with feedback (which can propagate one wrong decision) are believed only at
    /// the best phase and when the plain decisions there agree on the code (`plainAgrees`).
    /// The channel fit's bits stand on its model instead: the magnitude checks read an
    /// echo or ringing in the empty chips as another reply, while the model explains them;
    /// what it cannot explain, another reply across the code, it must not leave
    /// (`fitsCleanly`, see `ChannelFitSlicer.codeFitsCleanly`).
    ///
    /// Code 0 is held to less, with every slicer: it is the code of the acquisition
    /// squitter every aircraft sends each second, so far more replies carry it than any
    /// station's code, and decisions that come out as 0 are far more often right than a
    /// station's code whose set bits were all decided wrong. From the channel fit it needs
    /// only code bits that are not near-even (`codeDecided`, see
    /// `ChannelFitSlicer.codeBitsDecided`), and feedback decisions are believed at any of the
    /// best phases where the plain decisions agree.
    ///
    /// A station's code whose bits lay under a frame just cancelled (`codeUnderCancelledFrame`,
    /// a reply found in the residual) is read from what the cancellation left there: a
    /// reply at the rails or with an echo leaves enough to flip a code bit firmly.
    ///
    /// Where the code bits were clipped at the converter's rails (`codeClipped`, see
    /// `ChannelFitSlicer.codeClipped`), the model saw their pulses only through the edges
    /// and echoes: a station's code is not believed from it there, and code 0 needs what a
    /// station's code needs elsewhere.
    ///
    /// A station's code that is not `codeBelievable` (loud empty chips among its last bits) is
    /// still believed when the channel fit confirms it (`confirmedByChannelFit`: a strong reply
    /// whose fit, started from these bits, decides every bit the same and explains the code
    /// cleanly); feedback decisions still need the best phase and the plain decisions' agreement.
    /// An echo or the ringing of a reply at the rails makes empty chips loud as well as another
    /// reply does, and the fit's model tells the two apart: on the simulated skies this takes up
    /// to 44 more replies a stream (most readsb also decodes) and no false one.
    ///
    /// Feedback decisions are also believed, at any phase and whatever the plain decisions say,
    /// when the channel fit started from them decides the same code for a reply below six floors
    /// (`fitAgreesBelowSixFloors`, see `decidesSameCode`): near the noise the plain decisions are
    /// the noisiest of all, and the fit's coherent decision is a second one that noise seldom turns
    /// the same way (see the unambiguous-code test). Stronger replies are left out: there the fit
    /// agreed with codes that a reply following closely had turned. On the simulated skies this
    /// took 112 more replies over 14 streams and no false one. Near the noise (not `clearOfNoise`:
    /// under four floors, where the fit can run) a station's code from feedback decisions needs the
    /// fit's agreement: there the plain decisions' agreement is little more than the same noisy
    /// magnitudes read twice. That removed a false frame on two dense skies, for 25 true ones over
    /// 14 streams.
    ///
    /// A station's code the aircraft has answered with before (`ownCode`, see
    /// `AddressCodes`) is doubted less. Near the noise (not `clearOfNoise`) one heard
    /// `once` is believed with loud empty chips and from feedback without the fit's word:
    /// there those doubts are noise's, which lands on any code alike, seldom on the few this
    /// aircraft uses. Another reply over the code (`overlapped`, `followedClosely`,
    /// `codeUnderCancelledFrame`) is no doubt for one heard `repeated`ly: a code heard once
    /// may itself be such a reply's work, and an aircraft within reach of several stations
    /// uses codes near one another, which an overlap turned into each other on the dense
    /// skies. On the simulated skies the two took 125 more replies over 17 streams (59 near
    /// the noise) and 48 over 5 streams of seeds no rule was tuned on, with no false one.
    ///
    /// A reply following closely is no doubt for code 0 from the plain decisions when it
    /// `followerStartsLate` (see `InterferenceChecks.followerStartsLate`): after a quiet gap
    /// it began only once the code was over, and the plain decisions carry nothing from one
    /// bit into the next. A strong reply is often followed within 3 µs by a Mode A/C reply
    /// of another aircraft (its pulses on no Mode S grid), which the test otherwise takes
    /// for a reply starting on the code.
    func acceptsAllCall(
        _ bits: ModeSBits, attempt: SliceAttempt, overlapped: @autoclosure () -> Bool,
        followedClosely: @autoclosure () -> Bool, followerStartsLate: @autoclosure () -> Bool = false,
        codeBelievable: @autoclosure () -> Bool,
        plainAgrees: @autoclosure () -> Bool, fitsCleanly: @autoclosure () -> Bool = false,
        codeDecided: @autoclosure () -> Bool = false,
        codeClipped: @autoclosure () -> Bool = false,
        codeUnderCancelledFrame: @autoclosure () -> Bool = false,
        confirmedByChannelFit: @autoclosure () -> Bool = false,
        fitAgreesBelowSixFloors: @autoclosure () -> Bool = false,
        clearOfNoise: @autoclosure () -> Bool = true,
        ownCode: @autoclosure () -> AddressCodes.Standing = .unknown
    ) -> Bool {
        guard bits.downlinkFormat == 11 else { return true }
        let squitterCode = Self.interrogatorCode(of: bits) == 0
        // Another reply across the code is no doubt for a code this aircraft answered with
        // repeatedly; noise is none for one it answered with at all.
        func overlapDoubted() -> Bool { squitterCode || ownCode() < .repeated }
        func noiseDoubted() -> Bool { clearOfNoise() || ownCode() < .once }
        if !squitterCode, codeUnderCancelledFrame(), overlapDoubted() { return false }
        if attempt.slicer == .channelFit {
            guard !followedClosely() || !overlapDoubted() else { return false }
            if squitterCode { return codeDecided() && (!codeClipped() || fitsCleanly()) }
            return fitsCleanly() && !codeClipped()
        }
        func followed() -> Bool {
            followedClosely() && !(squitterCode && attempt.slicer == .plain && followerStartsLate())
        }
        guard !overlapped() && !followed() || !overlapDoubted() else { return false }
        if !squitterCode, !codeBelievable(), !confirmedByChannelFit(), noiseDoubted() { return false }
        if attempt.usesFeedback {
            if !squitterCode, !clearOfNoise() { return fitAgreesBelowSixFloors() || ownCode() >= .once }
            return (attempt.rank == 0 || squitterCode) && plainAgrees() || fitAgreesBelowSixFloors()
        }
        return true
    }

    /// The first bit (1-based) from which the all-call test's `overlapped` looks for another reply:
    /// for a DF11, its interrogator code's (the last 7 bits); nil for other formats (the usual
    /// reach, see `InterferenceChecks.overlapped`). No parity checks the code bits, so another
    /// reply's pulse over them can change the code without a trace. A pulse over an earlier bit
    /// that flips it changes the parity as well, and the syndrome still reads as a code (below 128)
    /// only one time in 2^17. Near the noise, samples far above the reply are mostly noise peaks,
    /// and an echo or the dongle's ringing makes empty chips loud: looking over the whole span (and
    /// over the three bits before the code for loud empty chips) refused true replies for them, on
    /// the simulated skies up to 18 a stream, with no false one let in by the narrower look.
    static func overlapMattersFrom(_ bits: ModeSBits) -> Int? {
        bits.downlinkFormat == 11 ? bits.bitCount - 6 : nil
    }
}
