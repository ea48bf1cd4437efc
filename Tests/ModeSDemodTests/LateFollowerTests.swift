import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// An acquisition squitter (code 0) followed, after a quiet gap, by a stronger reply: the
/// follower began once the code was over, so it is no doubt about the code
/// (`AcceptancePolicy.acceptsAllCall`, `InterferenceChecks.followerStartsLate`).
@Suite(.computeBound) struct LateFollowerTests {
    let policy = AcceptancePolicy(options: .init())

    /// Code 0 from the plain decisions stands with a late follower; from feedback, with a
    /// station's code, or with another reply over the code it does not.
    @Test func aLateFollowerIsNoDoubtForCodeZeroFromThePlainDecisions() {
        let squitter = allCall(address: 0x4840D6, code: 0)
        let coded = allCall(address: 0x4840D6, code: 0x15)
        let plain = SliceAttempt(rank: 0, slicer: .plain)
        let feedback = SliceAttempt(rank: 0, slicer: .smearFeedback)
        func accepts(_ bits: ModeSBits, _ attempt: SliceAttempt, late: Bool, overlapped: Bool = false) -> Bool {
            policy.acceptsAllCall(
                bits, attempt: attempt, overlapped: overlapped, followedClosely: true, followerStartsLate: late,
                codeBelievable: true, plainAgrees: true)
        }
        #expect(accepts(squitter, plain, late: true))
        #expect(!accepts(squitter, plain, late: false))
        #expect(!accepts(squitter, plain, late: true, overlapped: true))
        #expect(!accepts(squitter, feedback, late: true))
        #expect(!accepts(coded, plain, late: true))
    }

    /// The frames of a clean code-0 all-call reply (amplitude 40) and, starting `gap` µs
    /// after its end, a signal twice as strong that decodes to nothing (pulses on a Mode S
    /// grid whose parity names no aircraft heard), as another aircraft's Mode A/C reply
    /// does: nothing is found and cancelled there to free the reply of it. At `rate`.
    func frames(gap: Double, rate: SampleRate) -> [Frame] {
        let perMicrosecond = Double(rate.hertz) / 1e6
        let squitter = allCall(address: 0x48_41D6, code: 0)
        let follower = ModeSBits(hex: "02E19CB31F0A55")!
        let start = 300.0
        let bursts = [
            RectangularSignal.Burst(bits: squitter, start: start, amplitude: 40, frequencyOffset: 20_000),
            .init(bits: follower, start: start + (64 + gap) * perMicrosecond, amplitude: 80, frequencyOffset: -30_000)
        ]
        let bytes = RectangularSignal(sampleRate: rate, sampleCount: 4096, seed: 11).bytes(bursts, format: .cu8)
        return demodulate(bytes, format: .cu8, rate: rate).frames
    }

    /// A signal starting 2.5 µs after the squitter's end sits in the samples the all-call
    /// test looks at for a reply following closely, but after a quiet gap: the squitter is
    /// found. One starting on its last bit still refuses it.
    @Test(arguments: SampleRate.allCases)
    func aSquitterFollowedAfterAQuietGapIsFound(rate: SampleRate) {
        #expect(frames(gap: 2.5, rate: rate).map(\.downlinkFormat) == [11])
        #expect(frames(gap: -0.5, rate: rate).isEmpty)
    }
}
