import ModeS

/// The tests of repaired replies: when a three-bit repair of a squitter is tried and
/// believed, when a repair the confidences refuse is believed as a collision with another
/// pulse, and when an all-call reply's repair needs the channel fit's word on its code.
/// Repairs reach many syndromes, so each must also look like one whole reply.
extension AcceptancePolicy {
    /// The three-bit address test: whether a DF17/18 that no one- or two-bit repair explains
    /// (screening `.reject`) may try a three-bit repair. Three flips reach so many syndromes that
    /// only an address already confirmed (as demodulated, `addressKnown`) keeps it honest.
    func triesThreeBitRepair(_ bits: ModeSBits, place: Place, addressKnown: @autoclosure () -> Bool) -> Bool {
        threeBitRepairs && bits.bitCount == 112 && (bits.downlinkFormat == 17 || bits.downlinkFormat == 18)
            && place.allowsWeakChecks && addressKnown()
    }

    /// The three-bit window test: whether a three-bit repair is believed: its repaired address must
    /// be known too, and the window must look like one whole reply (`looksLikeDataWindow`: the
    /// inside of another reply; `lopsided`: half on another reply's preamble) with no stronger
    /// reply on top of it (`overlapped`): that reply's pulses decide the bits they cover firmly,
    /// wrong as often as right, and the least confident bits a repair may flip are then not where
    /// the errors are.
    func acceptsThreeBitRepair(
        repairedAddressKnown: Bool, looksLikeDataWindow: @autoclosure () -> Bool,
        lopsided: @autoclosure () -> Bool, overlapped: @autoclosure () -> Bool
    ) -> Bool {
        repairedAddressKnown && !looksLikeDataWindow() && !lopsided() && !overlapped()
    }

    /// The all-call repair: whether a DF11 repaired by one bit outside its code
    /// (`RepairGate.allCallRepair`: the bit among the least confident, the repaired address
    /// an aircraft already confirmed, so a repair never invents one) needs the channel fit,
    /// started from the repaired bits, to decide the same code before it is believed: for a
    /// station's code (`stationCode`), and for code 0 of a strong reply (`strong`, six floors
    /// above the floor) unless the plain slice at its best phase gave it.
    ///
    /// The wrong repairs are replies whose code was decided wrong as well as one bit
    /// elsewhere: no syndrome shows the code's own bits, so any code they read as passes
    /// for the true one. A strong reply's code goes wrong under the echo or ringing of its
    /// pulses, where another phase or a feedback slice reads part of the next chip; a weak
    /// one's in the noise. The channel fit models the echo, and finds no reply in noise.
    /// On the simulated skies, of about 2,800 repairs 6 were wrong, each refused this way;
    /// the fit vouched for 6 in 10 of the true station codes, and for the strong code-0
    /// replies the plain slice repaired two in three without it.
    func allCallRepairNeedsChannelFit(stationCode: Bool, attempt: SliceAttempt, strong: @autoclosure () -> Bool) -> Bool
    {
        stationCode || (!(attempt.slicer == .plain && attempt.rank == 0) && strong())
    }

    /// The confidence verdict: whether the `RepairGate` verdict on the bit confidences admits the
    /// reply; a repair it only trusts for a known address needs `isKnown` of that address.
    func admits(_ verdict: RepairGate.Verdict, isKnown: (UInt32) -> Bool) -> Bool {
        switch verdict {
        case .admit: true
        case .reject: false
        case .admitIfKnown(let address): isKnown(address)
        }
    }

    /// The collision repair: whether a one- or two-bit repair of a DF17/18 that the confidence
    /// verdict refused (`RepairGate.judge`: a bit was decided too firmly to be a noise error) is
    /// believed as a collision:
    /// - both chips of every repaired bit are loud (`repairedBitsBothLoud`, at half the
    ///   reply's pulse level above the floor): another pulse, most often a Mode A/C reply's,
    ///   landed in its empty chip and outshone the reply's own;
    /// - for a two-bit repair, few bits of the reply have both chips loud (`bothLoudCount`,
    ///   under `maximumCollisionBits`): a Mode A/C reply has at most 15 pulses, while another
    ///   Mode S reply across this one fills about half its bits, and a two-bit repair of such
    ///   a wreck checks now and then (a fiftieth as many syndromes read as one wrong bit, and
    ///   under another reply one firmly wrong bit is common, so a one-bit repair is not held
    ///   to this);
    /// - the repaired address is an aircraft already confirmed (`addressKnown`), and the repaired
    ///   message agrees with what it squittered (`agreesWithSquitters`, as the repair-squitter
    ///   agreement asks of a three-bit repair). A slice with several wrong bits whose syndrome
    ///   happens to read as one or two, the case the firmness test guards against, would need those
    ///   very bits to carry second pulses.
    func admitsCollisionRepair(
        repairedBitsBothLoud: @autoclosure () -> Bool, twoBits: Bool,
        bothLoudCount: @autoclosure () -> Int, addressKnown: @autoclosure () -> Bool,
        agreesWithSquitters: @autoclosure () -> Bool
    ) -> Bool {
        repairedBitsBothLoud() && (!twoBits || bothLoudCount() < Self.maximumCollisionBits) && addressKnown()
            && agreesWithSquitters()
    }

    /// Bits with both chips loud from which a reply is taken to be under another Mode S
    /// reply rather than hit by a few pulses (the collision repair, two-bit repairs).
    static let maximumCollisionBits = 17
}
