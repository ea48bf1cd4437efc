import ModeS

/// The tests of a DF11's interrogator code beyond the all-call test: whether its bits can
/// mean only that code, whether the channel fit or an earlier slice of the same reply
/// speaks against it, and who vouches for a station's code.
extension AcceptancePolicy {
    /// The unambiguous-code test: whether a DF11's interrogator `code` is the only code its bits
    /// can mean. `weakBits` (a mask in the code's own bit values, see `RepairGate.codeBits`) are
    /// the code bits decided too weakly to rule out either value. Only a few codes are in use at a
    /// time (code 0 and the stations' codes, `believed`), so a weak bit whose flip would give a
    /// code nobody uses is not a doubt; one whose flip would give another code in use is, and the
    /// reply is refused. At most two weak bits of a station's code are weighed: beyond that a reply
    /// is too noisy to trust the rest of its code either. Code 0 may have three at 2.4 MS/s
    /// (`squitterCodeWeakBits`): near the noise an acquisition squitter often has three of its
    /// seven code bits under half its mean confidence, and each of the seven ways of turning them
    /// is still weighed against the codes in use. On the simulated streams at 2.4 MS/s that took 97
    /// more replies (30 on the 60 s of replies at 3–6 dB in `make bench`, where readsb's frames we
    /// miss went from 143 to 133) and no false one; any number of weak bits, 16 more. At 2.0 MS/s
    /// it took 4 and one false frame, a station's code not yet believed read as 0 at 9 dB, which
    /// the channel fit agreed with: there a sample straddling two chips blurs a code bit into its
    /// neighbour, so a weak bit says less. `overstated` (a code bit scored far above the others,
    /// see `RepairGate.codeBits`) refuses a station's code, which an overlapping reply's pulses
    /// make up; code 0 needs only the first test.
    ///
    /// The channel fit, started from these bits, deciding the same code (`fitAgrees`, see
    /// `decidesSameCode`) counts for replies below six floors (not `strong`). It decides from
    /// the raw samples against its model of the reply's carrier, which near the noise gains
    /// on a slice of magnitudes: noise that turned a bit for the slicers seldom turns it the
    /// same way for the fit. Stronger replies' weak bits come from an echo, the rails or
    /// another reply, which mislead the fit as well (on the simulated skies it agreed with a code 0 read
    /// from a station's code at the rails, and under a reply following closely).
    /// - A station's code from a reply near the noise (not `clearOfNoise`) has its weak bits
    ///   weighed only when the fit agrees: there noise makes weak bits often, and a reply
    ///   with some is one whose other code bits noise may have turned firmly as well, to a
    ///   code in use (a station only starting to be heard, whose code is not yet believed,
    ///   can also be one of the weak bits away). On the simulated skies weighing them
    ///   without the fit let two false frames in among 278 gained; with it, 222 and none.
    /// - Code 0 whose weak bit would give a station's code in use is believed when the fit agrees:
    ///   code 0 is far more common than any station's code (see the all-call test), so with a
    ///   second decision behind it the doubt goes its way. On the simulated skies this took 143
    ///   more replies over 14 streams and no false one.
    ///
    /// Neither an overstated bit nor weak bits without the fit's agreement are a doubt for a code
    /// this aircraft has answered with before (`ownCode`, see `AddressCodes` and the all-call
    /// test): a noise peak or a dip turns a bit whatever the code, and seldom into one of the few
    /// codes an aircraft uses. On the simulated skies that took 95 more replies over 17 streams and
    /// 45 over 5 of new seeds, with no false one (with the all-call test's: 252 and 114).
    ///
    /// Weak bits are no doubt at all when the clipping decides the whole code
    /// (`decidedAtRails`, see `ClippedBits.decidesCode`; asked only where `readsClipping`):
    /// at the rails the carrier's phase and the dongle's ringing make a reply's bits score
    /// unevenly with nothing else there.
    func codeUnambiguous(
        _ code: Int, weakBits: Int, overstated: Bool, clearOfNoise: @autoclosure () -> Bool,
        strong: @autoclosure () -> Bool = true, fitAgrees: @autoclosure () -> Bool = false,
        decidedAtRails: @autoclosure () -> Bool = false,
        ownCode: @autoclosure () -> AddressCodes.Standing = .unknown,
        believed: (Int) -> Bool
    ) -> Bool {
        if code != 0, overstated, ownCode() < .once { return false }
        let weakBits = weakBits != 0 && decidedAtRails() ? 0 : weakBits
        if code != 0, weakBits != 0, !clearOfNoise(), !fitAgrees(), ownCode() < .once { return false }
        guard weakBits.nonzeroBitCount <= (code == 0 ? squitterCodeWeakBits : 2) else { return false }
        // Every non-empty subset of the weak bits, as flips of the code.
        var flips = weakBits
        while flips != 0 {
            if believed(code ^ flips) { return code == 0 && !strong() && fitAgrees() }
            flips = (flips - 1) & weakBits
        }
        return true
    }

    /// Whether the firmness test and the unambiguous-code test may take bits as decided by the
    /// clipping (`ClippedBits`): for the plain and feedback slices at the best phase, outside a
    /// residual. At another phase the sample read for a chip can hold the neighbouring chip's pulse
    /// (a code decided wrong at the second phase passed this way); in a residual the samples the
    /// clipping is read from are the stream's, with the cancelled reply still in them; the channel
    /// fit weighs clipped samples itself (`codeClipped`).
    func readsClipping(attempt: SliceAttempt, place: Place) -> Bool {
        attempt.rank == 0 && attempt.slicer != .channelFit && !place.inResidual
    }

    /// The channel-fit recheck: whether a strong DF11's station code stands against the channel
    /// fit. An echo or the dongle's ringing can put most of a strong pulse's energy into the chip
    /// after it, and the slicers then decide a bit of the code firmly wrong, where no parity shows
    /// it. `ChannelFitSlicer`'s model of the channel includes the echo: started from the same
    /// `bits`, its decisions (`fitted`, nil when it finds no reply there) are taken as the judge.
    /// When it leaves every bit outside the code as it was and changes only code bits among the
    /// last four (`echoProneCodeBits`), the reply is refused. When it changes earlier bits as well,
    /// the fit is not taken to describe this reply, and the code stands.
    ///
    /// Only for replies at least six floors above the floor (`strong`), outside a residual (the fit
    /// reads the stream's own samples), whose bits a slicer other than the channel fit decided.
    /// Code 0 is not rechecked: far more replies carry it than any station's code (see the all-call
    /// test), and rechecking it lost true frames on the simulated skies without removing a false
    /// one.
    func codeStandsAgainstChannelFit(
        _ bits: ModeSBits, attempt: SliceAttempt, place: Place,
        strong: @autoclosure () -> Bool, fitted: () -> ModeSBits?
    ) -> Bool {
        guard bits.downlinkFormat == 11, Self.interrogatorCode(of: bits) != 0, attempt.slicer != .channelFit,
            !place.inResidual, strong(), let fit = fitted(),
            fit.field(1, Self.firstCodeBit - 1) == bits.field(1, Self.firstCodeBit - 1)
        else { return true }
        let changed = Int(fit.field(Self.firstCodeBit, 56) ^ bits.field(Self.firstCodeBit, 56))
        return changed == 0 || changed & ~Self.echoProneCodeBits != 0
    }

    /// The code-0 reading test: whether a DF11's station `code` stands against the earlier slices
    /// of the same reply. Where a slice starting within a sample of this one read the same address
    /// with code 0 (`codeZeroNearby`, see `CodeZeroReadings`), a code bit was decided both ways,
    /// and the parity cannot say which is right; code 0, the acquisition squitter's, is far more
    /// common than any station's code, and the station's code is refused. (Code 0 read after a
    /// station's code is left alone: the doubt goes its way.) On the simulated skies the wrong
    /// codes were strong replies with another reply starting just after their end, refused by the
    /// all-call test at one start and taken at the next with one code bit turned; over 14 streams
    /// this removed one false frame for 3 true ones, and looking 3 samples either way instead of 1
    /// changed nothing.
    func stationCodeStands(_ code: Int, codeZeroNearby: @autoclosure () -> Bool) -> Bool {
        code == 0 || !codeZeroNearby()
    }

    /// How far (in samples) the code-0 reading test looks for a code-0 reading of the same reply.
    static let codeZeroReach = 1

    /// The feedback-code test: whether a station's code of one set bit, from an amplitude or smear
    /// feedback slice, stands where the plain decisions at the same phase found that bit weak
    /// (`plainWeak`, a mask in the code's bit values, see `RepairGate.codeBits`). The feedback
    /// decided firmly the one bit that makes this code rather than code 0, from what it assumed of
    /// the bit before; the plain decision, which assumes nothing, was unsure. That doubt needs the
    /// channel fit's agreement (`fitAgrees`, see `decidesSameCode`), as code 0's doubt does in the
    /// unambiguous-code test. On the simulated skies this removed 2 false frames over 14 streams
    /// for 1 true one (a refused wrong code lets a later attempt find the right one); asking the
    /// same of any code whose plain weak bits could make it another code in use lost 76 true
    /// frames, and refusing without the fit's say 42.
    func feedbackCodeStands(
        _ code: Int, attempt: SliceAttempt, plainWeak: () -> Int,
        fitAgrees: @autoclosure () -> Bool
    ) -> Bool {
        guard code.nonzeroBitCount == 1,
            attempt.slicer == .amplitudeFeedback || attempt.slicer == .smearFeedback
        else { return true }
        return plainWeak() & code == 0 || fitAgrees()
    }

    /// Whether the channel fit's decisions (`fit`, nil when it found no reply) give the DF11 `bits`
    /// the same interrogator code: the "fit agrees" of the all-call test and the unambiguous-code
    /// test. Only the code's 7 bits are compared. They are the doubt; the CRC has already checked
    /// the slice's other bits, and near the noise the fit now and then turns one of those on its
    /// own (its decisions on the code stay a second opinion all the same). On the simulated skies,
    /// asking for all 56 bits the same refused 30 more true replies over 14 streams and no false
    /// one, and one of the three replies at 3-6 dB that readsb decodes and we did not.
    static func decidesSameCode(_ fit: ModeSBits?, as bits: ModeSBits) -> Bool {
        guard let fit, fit.bitCount == bits.bitCount else { return false }
        return fit.field(firstCodeBit, bits.bitCount) == bits.field(firstCodeBit, bits.bitCount)
    }

    /// The code bits (in the code's own bit values) where the channel fit overrules the
    /// slicers: the last four. On the simulated skies every station's code decided wrong was
    /// wrong there, and the fit was right on every reply where it changed only those; where it
    /// changed only earlier code bits it was wrong as often as right (refusing on any code
    /// bit lost 7 true frames on the dense sky for 3 false ones).
    static let echoProneCodeBits = 0b1111

    /// The vouching test: the interrogator code of a validated DF11 that must be vouched for by
    /// `InterrogatorCodes` before the frame is believed (noise turns an acquisition
    /// squitter's code 0 into a station's code as easily as into any other), or nil.
    func codeToVouchFor(_ bits: ModeSBits) -> Int? {
        guard confirmInterrogatorCodes, bits.downlinkFormat == 11 else { return nil }
        let code = Self.interrogatorCode(of: bits)
        return code != 0 ? code : nil
    }

    /// The known-address code test: whether a DF11 whose code `InterrogatorCodes` does not vouch
    /// for is believed anyway because its address was confirmed by a clean CRC before this reply
    /// (`addressKnown`), as an address/parity reply is: a code is a station's answer, and a station
    /// near the edge of the receiver's reach may interrogate only one aircraft the receiver hears,
    /// so no second aircraft ever vouches for it. Without that second aircraft only the bits
    /// themselves speak for the code: besides the checks of the all-call test (no stronger reply on
    /// top or just after, a reply well above the floor, no loud empty chips among the code bits),
    /// every code bit must have been decided firmly (`codeFirm`, see `RepairGate.codeFirm`). Not
    /// for the channel fit's bits: a strong reply with an echo that its model explains well can
    /// still have one code bit firmly wrong, and nothing but a second aircraft tells.
    func codeOfKnownAddressBelieved(
        attempt: SliceAttempt, addressKnown: @autoclosure () -> Bool,
        codeFirm: @autoclosure () -> Bool
    ) -> Bool {
        knownAddressInterrogatorCodes && attempt.slicer != .channelFit && addressKnown() && codeFirm()
    }
}
