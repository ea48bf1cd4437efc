import IQ
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
    var coherentRetry: Bool
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

    /// The usable-slice test: whether the bits of `attempt` can be used at all. A DF11's
    /// interrogator code cannot be checked, and a sequence decision turns a code into 0 (or 0 into
    /// a code) as firmly as it decides the rest: from the sequence slicer, a DF11 only with code 0
    /// (the acquisition squitter's, far more common than any station's), which the all-call test
    /// then takes only where the plain decisions agree on the code and the unambiguous-code test
    /// only without a weak code bit that could make it a station's code in use. On 14 simulated
    /// streams that took 8 replies more and cost 1, with no false one; a station's code from it is
    /// never taken. (The channel fit measures how firmly it decided each code bit against its
    /// model: the all-call test.) A sequence decided at a phase other than the best (see
    /// `SlicePlan.sequencePhases`) is one more try at a weak reply, which an address/parity format
    /// (DF0/4/5/16/20/21) would pass once in a while by naming a known address by chance: only a
    /// DF17/18, which its whole CRC checks (one such DF21 was let in on the simulated skies
    /// otherwise).
    func usable(_ bits: ModeSBits, from attempt: SliceAttempt) -> Bool {
        guard attempt.slicer == .sequence else { return true }
        let format = bits.downlinkFormat
        return attempt.rank == 0 ? format != 11 || CRC.syndrome(of: bits) == 0 : format == 17 || format == 18
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

    /// The first bit of a DF11's interrogator code (bits 50-56, the parity field's last 7).
    static let firstCodeBit = 50

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
