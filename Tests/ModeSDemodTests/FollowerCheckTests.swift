import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct FollowerCheckTests {
    /// An acquisition squitter (code 0) and a squitter of another aircraft starting on its
    /// last bit, both `amplitude` LSB with different carriers, at sample 100 (phase 0);
    /// `check` is asked about `claimed` bits for the first reply.
    func stands(_ claimed: (ModeSBits) -> ModeSBits, rate: SampleRate, amplitude: Double) -> Bool {
        let kernels = ReplyKernels(sampleRate: rate)
        var allCall = ModeSBits(bitCount: 56)
        allCall.setField(1, 5, 11)
        allCall.setField(6, 8, 5)
        allCall.setField(9, 32, 0x48_41D6)
        allCall = CRC.withParity(allCall, overlay: 0)
        let follower = RectangularSignal.extendedSquitter(address: 0x3C_6511, payload: 0x58_F0F0_0F0F_1234)
        let offset = kernels.firstSample(ofBit: 56)
        let start = 100 + Double(kernels.phaseOffsets[0]) / 10
        let bursts = [
            RectangularSignal.Burst(bits: allCall, start: start, amplitude: amplitude, frequencyOffset: 40_000),
            .init(
                bits: follower, start: start + Double(offset), amplitude: amplitude,
                frequencyOffset: -30_000)
        ]
        let count = 800
        let bytes = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 5).bytes(bursts, format: .cu8)
        var magnitudes = [UInt16](repeating: 0, count: count)
        let slicer = BitSlicer(kernels: kernels)
        let check = FollowerCheck(
            format: .cu8, kernels: kernels, slicer: slicer,
            repairGate: RepairGate(rankLimit: 24, knownAddressRankLimit: 24, allowTwoBits: true))
        return bytes.withUnsafeBytes { raw in
            magnitudes.withUnsafeMutableBufferPointer { values in
                MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
                return check.codeStands(
                    claimed(allCall), phase: 0, follower: follower, offset: offset,
                    followerPhase: 0, raw: raw.baseAddress! + 100 * 2,
                    magnitudes: values.baseAddress! + 100, count: FollowerCheck.window(kernels))
            }
        }
    }

    /// With the follower cancelled the true code comes back, at the rails as well; a code
    /// turned in the bit the follower's first pulse lies on, or in the bit before, does not
    /// stand.
    @Test(arguments: SampleRate.allCases, [60.0, 200.0])
    func theCodeIsDecidedAgainWithoutTheFollower(rate: SampleRate, amplitude: Double) {
        #expect(stands({ $0 }, rate: rate, amplitude: amplitude))
        for number in [55, 56] {
            #expect(
                !stands(
                    {
                        var turned = $0
                        turned.flipBit(number)
                        return turned
                    }, rate: rate, amplitude: amplitude),
                "bit \(number)")
        }
    }

    /// Only a reply starting on the third-last bit or later, up to the sample right after
    /// the end, follows closely.
    @Test(arguments: SampleRate.allCases)
    func onlyAReplyStartingOnTheLastBitsFollows(rate: SampleRate) {
        let kernels = ReplyKernels(sampleRate: rate)
        let check = FollowerCheck(
            format: .cu8, kernels: kernels, slicer: BitSlicer(kernels: kernels),
            repairGate: RepairGate(rankLimit: 24, knownAddressRankLimit: 24, allowTwoBits: true))
        let first = kernels.firstSample(ofBit: FollowerCheck.firstBitFollowed)
        #expect(check.follows(offset: first))
        #expect(!check.follows(offset: first - 1))
        #expect(check.follows(offset: kernels.span(bitCount: 56)))
        #expect(!check.follows(offset: kernels.span(bitCount: 56) + 1))
        #expect(!check.follows(offset: 0))
    }
}
