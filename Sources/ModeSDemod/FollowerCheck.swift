import IQ
import ModeS

/// Decides a DF11's interrogator code again once a reply starting on its last code bits, or
/// right after them, has been decoded too (the follower check).
///
/// No parity checks a DF11's last 7 bits, so the first pulse of a reply that starts there can turn
/// a code bit without a trace. Such a follower puts only one or two pulses into the reply, which
/// the overlap tests of the all-call test cannot tell from the reply's own, above all at the
/// converter's rails, where both replies read the same. Once the follower is decoded, though, it is
/// known bit for bit: it is cancelled from the samples (`ReplyCanceller`) and the DF11's bits are
/// sliced again from what is left, at the DF11's own phase. Where a code bit comes out otherwise,
/// and firmly, the follower's pulse decided it, and the DF11 is refused.
///
/// On 14 simulated streams this refused a false frame on three dense skies and no true one.
/// Followers that start earlier run their preamble and data across several of the reply's bits,
/// where the all-call test sees them: re-slicing under those as well refused 3 true replies whose
/// code the cancellation left wrong, and no false one more. Refusing on a changed bit that the
/// re-slice leaves weak refused 3 true replies too, two at the rails, where the components the
/// follower clipped are left silent.
///
/// A class only to own its canceller, whose buffers stay apart from the one the search
/// beneath cancelled frames is reading, and its scratch; one per demodulator.
final class FollowerCheck {
    /// The first bit (1-based) of a DF11 on which a follower's start is checked: the third
    /// from last.
    static let firstBitFollowed = 54

    private let kernels: ReplyKernels
    private let slicer: BitSlicer
    private let repairGate: RepairGate
    private let canceller: ReplyCanceller
    /// Scratch: the confidence of each bit sliced again.
    private let confidence: UnsafeMutablePointer<Int32>

    /// Samples from a DF11's start to the end of any reply that can follow it this closely.
    static func window(_ kernels: ReplyKernels) -> Int {
        kernels.span(bitCount: 56) + kernels.replySpan + 2
    }

    init(format: SampleFormat, kernels: ReplyKernels, slicer: BitSlicer, repairGate: RepairGate) {
        self.kernels = kernels
        self.slicer = slicer
        self.repairGate = repairGate
        canceller = ReplyCanceller(format: format, kernels: kernels, maximumWindow: Self.window(kernels))
        confidence = .allocate(capacity: ReplyKernels.maximumBits)
        confidence.initialize(repeating: 0, count: ReplyKernels.maximumBits)
    }

    deinit {
        confidence.deallocate()
    }

    /// Whether a reply starting `offset` samples after a DF11's start follows it closely:
    /// from its bit `firstBitFollowed` on, up to the sample right after its end (whose pulse
    /// the band limit smears back into the last bit).
    func follows(offset: Int) -> Bool {
        offset >= kernels.firstSample(ofBit: Self.firstBitFollowed) && offset <= kernels.span(bitCount: 56)
    }

    /// Whether the DF11 `allCall`, sliced at `phase` from `magnitudes` (raw samples `raw`),
    /// keeps its code with the reply `follower` (starting `offset` samples later, at
    /// `followerPhase`) cancelled: false only when a code bit comes out otherwise and not
    /// weak (see `RepairGate.codeBits`). `count`: samples readable from the DF11's start, at
    /// most `window`.
    func codeStands(
        _ allCall: ModeSBits, phase: Int, follower: ModeSBits, offset: Int, followerPhase: Int,
        raw: UnsafeRawPointer, magnitudes: UnsafePointer<UInt16>, count: Int
    ) -> Bool {
        let length = min(count, offset + kernels.span(bitCount: follower.bitCount) + 1)
        guard length > kernels.span(bitCount: 56) else { return true }
        let residual = canceller.residual(
            raw: raw, magnitudes: magnitudes, count: length, replyStart: offset,
            offsetTenths: kernels.phaseOffsets[followerPhase], bits: follower)
        // The DF11's first bits are left as they were, so the slice keeps its format; without
        // one, nothing speaks against the code.
        guard let again = slicer.slice(residual, phase: phase, feedback: 0) else { return true }
        let first = AcceptancePolicy.firstCodeBit
        let changed = Int(again.field(first, 56) ^ allCall.field(first, 56))
        guard changed != 0 else { return true }
        // A cancellation is never exact: a changed bit the re-slice leaves near-even is no
        // evidence either way.
        slicer.confidence(residual, phase: phase, feedback: 0, bitCount: 56, into: confidence)
        return changed & repairGate.codeBits(confidence, count: 56).weak != 0
    }
}
