import ModeS

/// The ordered rules that decide whether the bits of one slice attempt become a frame.
///
/// Each rule is a pure function of the bits, the `RepairGate` screening, the bit
/// confidences and a few facts about the candidate's samples. The facts that take a
/// measurement of the samples are passed as autoclosures, so the demodulator measures
/// only what a rule actually asks for, in the order the rule asks; tests pass plain flags.
///
/// Why rules beyond the CRC: a slice of noise, or of the inside of another reply, is
/// "repaired" by the syndrome tables or matches an address by chance often enough that,
/// with tens of thousands of candidates per second, false frames would get through.
/// Every weakly checked frame (a repair, an address/parity reply, an interrogator code)
/// must therefore also look like a single, whole reply.
struct AcceptancePolicy {
    /// Where a candidate lies relative to frames already found.
    struct Place: Equatable {
        /// The samples are a residual: what is left once an overlapping frame was
        /// cancelled, so that frame's inside is no longer off limits.
        var inResidual: Bool
        /// The candidate starts inside the span of a frame just accepted.
        var insideFrame: Bool

        /// Whether a weakly checked frame may come from here. Inside a frame just decoded
        /// the gate passes on that frame's own Manchester data at almost every sample, and
        /// a slice of it is one reply's bits at the wrong timing: only a clean CRC is
        /// believed there (a residual no longer holds that frame).
        var allowsWeakChecks: Bool { inResidual || !insideFrame }
    }

    /// What to do with an address/parity reply before validation.
    enum AddressParityRoute: Equatable {
        /// Validate it as it is.
        case asIs
        /// Its parity names no aircraft seen, but one wrong bit could explain that: try the
        /// one-bit repair (`RepairGate.addressParityRepair`).
        case repairOneBit
        /// Drop it.
        case reject
    }

    /// Try three-bit repairs of DF17/18 from known aircraft.
    let threeBitRepairs: Bool
    /// Try one-bit repairs of address/parity replies.
    let addressParityRepairs: Bool
    /// Require address/parity replies to have firmly decided bits.
    let addressParityFirmness: Bool
    /// Believe a DF11 interrogator code only once another aircraft has answered to it.
    let confirmInterrogatorCodes: Bool
    /// Believe a non-zero interrogator code from an address already known.
    let knownAddressInterrogatorCodes: Bool
    /// Slice a strong DF17/18 again coherently when every attempt failed.
    let coherentRetry: Bool
    /// How many weak code bits code 0 may have (the unambiguous-code test, `codeUnambiguous`):
    /// three at 2.4 MS/s, two at 2.0 MS/s; a station's code, two at either rate.
    let squitterCodeWeakBits: Int

    /// The policy the demodulator's options ask for, at `sampleRate`.
    init(options: StreamingDemodulator.Options, sampleRate: SampleRate = .twoPointFourMega) {
        squitterCodeWeakBits = sampleRate == .twoPointFourMega ? 3 : 2
        threeBitRepairs = options.threeBitRepairs
        addressParityRepairs = options.addressParityRepairs
        addressParityFirmness = options.addressParityFirmness
        confirmInterrogatorCodes = options.confirmInterrogatorCodes
        knownAddressInterrogatorCodes = options.knownAddressInterrogatorCodes
        coherentRetry = options.coherentRetry && options.cancelOverlaps
    }

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

    /// The usable-slice test: whether the bits of `attempt` can be used at all. A DF11's
    /// interrogator code cannot be checked, and a sequence decision turns a code into 0 (or 0 into
    /// a code) as firmly as it decides the rest: from the sequence slicer, a DF11 only with code 0
    /// (the acquisition squitter's, far more common than any station's), which the all-call test
    /// then takes only where the plain decisions agree on the code and the unambiguous-code test
    /// only without a weak code bit that could make it a station's code in use. On 14 simulated
    /// streams that took 8 replies more and cost 1, with no false one; a station's code from it is
    /// never taken. (The channel fit measures how firmly it decided each code bit against its
    /// model: rule 6.) A sequence decided at a phase other than the best (see
    /// `SlicePlan.sequencePhases`) is one more try at a weak reply, which an address/parity format
    /// (DF0/4/5/16/20/21) would pass once in a while by naming a known address by chance: only a
    /// DF17/18, which its whole CRC checks (one such DF21 was let in on the simulated skies
    /// otherwise).
    func usable(_ bits: ModeSBits, from attempt: SliceAttempt) -> Bool {
        guard attempt.slicer == .sequence else { return true }
        let format = bits.downlinkFormat
        return attempt.rank == 0 ? format != 11 || CRC.syndrome(of: bits) == 0 : format == 17 || format == 18
    }

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

    /// The window test: whether the window checks let the bits go on. A clean CRC needs none; every
    /// weakly checked reply (address parity, a repair, an interrogator code) must come from
    /// where weak checks are allowed and from a window that looks like one whole reply.
    func passesWindowChecks(
        _ screening: RepairGate.Screening, place: Place,
        looksLikeDataWindow: @autoclosure () -> Bool,
        lopsided: @autoclosure () -> Bool
    ) -> Bool {
        if screening == .clean { return true }
        return place.allowsWeakChecks && !looksLikeDataWindow() && !lopsided()
    }

    /// The address/parity route: the route of an address/parity reply. Its parity names an address;
    /// when that may be an aircraft seen (`seen`), the validator can judge it. Otherwise the
    /// validator would refuse it, unless one weak bit is wrong and the parity is one bit away from
    /// a seen address (`nearSeen`).
    func addressParityRoute(
        _ screening: RepairGate.Screening, place: Place, seen: @autoclosure () -> Bool,
        nearSeen: @autoclosure () -> Bool
    ) -> AddressParityRoute {
        guard screening == .addressParity, !seen() else { return .asIs }
        return addressParityRepairs && nearSeen() && place.allowsWeakChecks ? .repairOneBit : .reject
    }

    /// The firmness test: whether an address/parity reply must show firmly decided bits
    /// (`RepairGate.firmEnough`): its parity only says "some address", so the bits
    /// themselves must look like one reply rather than noise. A bit the clipping decides
    /// (`ClippedBits.decides`, where `readsClipping`) is firm however it scored: at the rails
    /// the carrier's phase and the dongle's ringing make a reply's bits score unevenly.
    func requiresFirmness(_ screening: RepairGate.Screening) -> Bool {
        screening == .addressParity && addressParityFirmness
    }

    /// The altitude and identity agreement: whether an address/parity reply agrees with what the
    /// aircraft its parity names last reported in its extended squitters (`reports`, see
    /// `SquitterReports`): the altitude of a DF0/4/16/20 within `altitudeMargin` of the one
    /// reported, allowing a climb or descent of `climbRate` since; the Mode A code of a DF5/21 the
    /// same. A wrong bit in the parity field names another aircraft, one heard when addresses
    /// cluster as a country's do; the altitude or code is then the sender's, and would be shown as
    /// the named aircraft's. Nothing reported: nothing to hold against. (On the simulated skies,
    /// true replies were never more than 200 ft off, and the wrong ones thousands of feet.)
    static func agreesWithSquitters(_ bits: ModeSBits, reports: SquitterReports, at time: Double) -> Bool {
        let named = CRC.syndrome(of: bits)
        switch bits.downlinkFormat {
        case 0, 4, 16, 20:
            guard let reported = reports.altitude(of: named, at: time),
                let (feet, _) = AltitudeCode.decode13(UInt32(bits.field(20, 32)))
            else { return true }
            return altitude(feet, keepsTo: reported, at: time)
        case 5, 21:
            guard let reported = reports.identity(of: named, at: time) else { return true }
            return Int(bits.field(20, 32)) == reported.value
        default:
            return true
        }
    }

    /// The repair-squitter agreement: whether a three-bit repair of a DF17/18 (`repaired`) agrees
    /// with what its aircraft reported before in squitters whose whole CRC checked them
    /// (`reports`): an airborne position's altitude as in the altitude and identity agreement, a
    /// velocity one that could follow the last (`VelocityReport.couldFollow`), and a message of a
    /// kind that seldom changes (`SquitterReports.Steady`: callsign, status, target state,
    /// operational status) the same as the last of its kind. Another reply across a strong squitter
    /// flips its bits firmly; three flips reach so many syndromes that a repair of such a wreck
    /// sometimes checks, and then puts a wrong callsign or status on a known aircraft (on the
    /// simulated skies, about one in 600 of these repairs). A surface position (type codes 5–8)
    /// from an aircraft that reported an airborne altitude within `SquitterReports.maximumAge` is
    /// refused as well: the one such repair on the simulated skies was the wreck of a squitter
    /// under two stronger replies. An aircraft that has just landed loses only those of its first
    /// surface positions that needed three flips. Nothing reported: nothing to hold against.
    /// Whatever was reported, a repair to a type code the standard reserves (25–27 and 30), which
    /// no transponder sends, is refused: on a simulated sky of replies at 3–6 dB one repair of a
    /// target-state squitter came out as type code 25, on ground.
    static func repairAgreesWithSquitters(_ repaired: ModeSBits, reports: SquitterReports, at time: Double) -> Bool {
        let address = UInt32(repaired.field(9, 32))
        let typeCode = repaired.field(33, 37)
        if reservedTypeCodes.contains(typeCode) { return false }
        if (5...8).contains(typeCode) { return reports.altitude(of: address, at: time) == nil }
        if (9...18).contains(typeCode) {
            guard let reported = reports.altitude(of: address, at: time),
                let feet = AltitudeCode.decode12(UInt32(repaired.field(41, 52)))
            else { return true }
            return altitude(feet, keepsTo: reported, at: time)
        }
        if typeCode == 19 {
            guard let report = VelocityReport(repaired), let last = reports.velocity(of: address, at: time),
                let earlier = VelocityReport(last.bits)
            else { return true }
            return report.couldFollow(earlier, after: time - last.time)
        }
        guard let kind = SquitterReports.Steady(typeCode: typeCode),
            let last = reports.steady(kind, of: address, at: time)
        else { return true }
        return repaired.field(33, 88) == last
    }

    /// The small-repair squitter agreement: whether the DF17/18 `bits`, once repaired by `fix` (the
    /// one or two bits the validator will turn, see `RepairGate.repair`; nil when none), agree with
    /// what their aircraft squittered before, as the repair-squitter agreement asks of a three-bit
    /// repair: only for a reply `clearOfNoise` (four floors or more above the floor). There the
    /// wrong bits come from another reply across it rather than from noise, and such a wreck, wrong
    /// in eight bits or more, now and then checks after two flips. On dense skies of three seeds no
    /// rule was tuned on, two of four false squitters were such (a target state, and a position at
    /// 28,225 ft from an aircraft at 2,600 ft), and no true frame was lost on 27 streams. Nearer
    /// the noise the wrong bits are few and the repair mostly right: there the same test cost 37
    /// true frames over the 3–6 dB streams.
    static func smallRepairAgreesWithSquitters(
        _ bits: ModeSBits, fix: (first: Int, second: Int)?,
        clearOfNoise: @autoclosure () -> Bool,
        reports: SquitterReports, at time: Double
    ) -> Bool {
        guard let fix, bits.downlinkFormat == 17 || bits.downlinkFormat == 18, clearOfNoise() else { return true }
        var repaired = bits
        repaired.flipBit(fix.first)
        if fix.second > 0 { repaired.flipBit(fix.second) }
        return repairAgreesWithSquitters(repaired, reports: reports, at: time)
    }

    /// The extended squitter type codes the standard reserves: no transponder sends them.
    static let reservedTypeCodes: [UInt64] = [25, 26, 27, 30]

    /// Whether an altitude of `feet` heard at `time` is within `altitudeMargin` of the one
    /// `reported`, allowing a climb or descent of `climbRate` since (the repair-squitter agreement
    /// and the altitude and identity agreement).
    private static func altitude(_ feet: Int, keepsTo reported: SquitterReports.Report, at time: Double) -> Bool {
        Double(abs(feet - reported.value)) <= altitudeMargin + climbRate * max(0, time - reported.time)
    }

    /// The difference in feet the altitude and identity agreement allows at once: a Mode C altitude
    /// is rounded to 100 ft.
    static let altitudeMargin = 300.0
    /// The climb or descent in feet per second the altitude and identity agreement allows on top:
    /// 100, steeper than any airliner's (about 6,000 ft a minute).
    static let climbRate = 100.0

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
    func acceptsAllCall(
        _ bits: ModeSBits, attempt: SliceAttempt, overlapped: @autoclosure () -> Bool,
        followedClosely: @autoclosure () -> Bool, codeBelievable: @autoclosure () -> Bool,
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
        guard !overlapped() && !followedClosely() || !overlapDoubted() else { return false }
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

    /// The first bit of a DF11's interrogator code (bits 50-56, the parity field's last 7).
    static let firstCodeBit = 50

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

    /// Whether a candidate whose every slice failed gets the coherent attempt
    /// (`ReplyCanceller.coherentBits`): only outside a frame just found and outside a
    /// residual, and only when the plain slice at the best phase (`firstSlice`) was a
    /// DF17/18, whose full CRC can check the coherent decisions.
    func triesCoherent(firstSlice: ModeSBits?, place: Place) -> Bool {
        guard coherentRetry, !place.inResidual, !place.insideFrame, let plain = firstSlice else { return false }
        return plain.downlinkFormat == 17 || plain.downlinkFormat == 18
    }

    /// Whether coherent decisions are believed: a clean CRC, or a repair whose `verdict`
    /// on the coherent confidences `admits`. Address/parity results and unrepairable bits
    /// are refused: the coherent attempt only exists to rescue DF17/18.
    func acceptsCoherent(
        _ screening: RepairGate.Screening, verdict: @autoclosure () -> RepairGate.Verdict,
        isKnown: (UInt32) -> Bool
    ) -> Bool {
        switch screening {
        case .clean: true
        case .needsJudgement: admits(verdict(), isKnown: isKnown)
        case .addressParity, .allCallRepair, .reject: false
        }
    }

    /// The low 7 bits of a DF11's syndrome: its interrogator code when the rest is clean.
    static func interrogatorCode(of bits: ModeSBits) -> Int {
        Int(CRC.syndrome(of: bits) & 0x7F)
    }
}
