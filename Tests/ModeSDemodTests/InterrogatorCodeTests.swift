import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// How a DF11's interrogator code (7 bits no CRC checks) is weighed: which code bits were
/// decided weakly, which codes are in use, and whether the weak bits leave any doubt.
@Suite(.computeBound) struct InterrogatorCodeTests {
    let gate = RepairGate(rankLimit: 6, knownAddressRankLimit: 24, allowTwoBits: true)
    let policy = AcceptancePolicy(options: StreamingDemodulator.Options())

    /// The mask and the overstated flag of 56 confidences of 1000, with `changed` bits
    /// (1-based) set to the given scores.
    func codeBits(_ changed: [Int: Int32]) -> (weak: Int, overstated: Bool) {
        var scores = [Int32](repeating: 1000, count: 56)
        for (number, score) in changed { scores[number - 1] = score }
        return scores.withUnsafeBufferPointer { gate.codeBits($0.baseAddress!, count: 56) }
    }

    @Test func weakCodeBitsAreMaskedByTheirValueInTheCode() {
        // Bit 56 is the code's lowest bit, bit 50 its highest (64).
        #expect(codeBits([56: 100]).weak == 1)
        #expect(codeBits([50: 100, 53: 400]).weak == 64 | 8)
        // Half the mean is the line; bits before the code do not count.
        #expect(codeBits([52: 600, 49: 10]).weak == 0)
        #expect(codeBits([:]) == (0, false))
        #expect(codeBits([54: 3000]).overstated)
        #expect(!codeBits([54: 1900]).overstated)
    }

    @Test func aBitAtOrAboveTheFirmScoreIsNeverWeak() {
        var scores = [Int32](repeating: 1000, count: 56)
        scores[55] = 300
        scores.withUnsafeBufferPointer { buffer in
            #expect(gate.codeBits(buffer.baseAddress!, count: 56, firm: 301).weak == 1)
            #expect(gate.codeBits(buffer.baseAddress!, count: 56, firm: 300).weak == 0)
            // Without a firm score, half the mean stays the only line.
            #expect(gate.codeBits(buffer.baseAddress!, count: 56).weak == 1)
        }
        // Five floors of on/off difference, in the slicer's units.
        #expect(RepairGate.squitterFirmScore(floor: 1000, bitScale: 12) == 60_000)
        #expect(RepairGate.squitterFirmScore(floor: .max, bitScale: 12) == .max)
    }

    @Test func codeZeroMayHaveThreeWeakBitsAtTwoPointFourMegasamples() {
        let inUse: Set<Int> = [0, 0x15, 0x05]
        let believed = { inUse.contains($0) }
        let atTwoMega = AcceptancePolicy(options: StreamingDemodulator.Options(), sampleRate: .twoMega)
        // Three weak bits none of whose seven turnings gives a code in use (0x01, 0x02, 0x08
        // and their sums): code 0 is believed at 2.4 MS/s, refused at 2.0 MS/s.
        #expect(policy.codeUnambiguous(0, weakBits: 0x0B, overstated: false, clearOfNoise: false, believed: believed))
        #expect(
            !atTwoMega.codeUnambiguous(
                0, weakBits: 0x0B, overstated: false, clearOfNoise: false,
                believed: believed))
        // Three weak bits, two of which turned give a station's code (0x05): refused.
        #expect(!policy.codeUnambiguous(0, weakBits: 0x0D, overstated: false, clearOfNoise: true, believed: believed))
        // Four weak bits: refused whatever they would give.
        #expect(
            !policy.codeUnambiguous(0, weakBits: 0x4B, overstated: false, clearOfNoise: true, believed: { $0 == 0 }))
        // A station's code keeps the limit of two.
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 0x62, overstated: false, clearOfNoise: true,
                believed: { $0 == 0x15 }))
    }

    @Test func aWeakBitIsADoubtOnlyWhenItsFlipGivesACodeInUse() {
        let inUse: Set<Int> = [0, 0x15, 0x05]
        let believed = { inUse.contains($0) }
        #expect(policy.codeUnambiguous(0x15, weakBits: 0, overstated: false, clearOfNoise: true, believed: believed))
        // 0x15 with its lowest bit flipped is 0x14, which no station uses.
        #expect(policy.codeUnambiguous(0x15, weakBits: 1, overstated: false, clearOfNoise: true, believed: believed))
        // With bit value 16 flipped it is 0x05, another station's.
        #expect(!policy.codeUnambiguous(0x15, weakBits: 16, overstated: false, clearOfNoise: true, believed: believed))
        // Two weak bits: every combination is weighed (0x15 ^ 0x14 = 0x01, ^ 0x10 = 0x05).
        #expect(
            !policy.codeUnambiguous(0x15, weakBits: 0x14, overstated: false, clearOfNoise: true, believed: believed))
        #expect(policy.codeUnambiguous(0x15, weakBits: 0x22, overstated: false, clearOfNoise: true, believed: believed))
        // More than two weak bits: refused whatever they would give.
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 0x62, overstated: false, clearOfNoise: true, believed: { $0 == 0x15 }))
        // Code 0 is doubted only where a weak bit would make it a station's code.
        #expect(policy.codeUnambiguous(0, weakBits: 2, overstated: false, clearOfNoise: true, believed: believed))
        #expect(!policy.codeUnambiguous(0, weakBits: 0x05, overstated: false, clearOfNoise: true, believed: believed))
        // Near the noise a weak bit refuses a station's code whatever it would give; not code 0.
        #expect(!policy.codeUnambiguous(0x15, weakBits: 1, overstated: false, clearOfNoise: false, believed: believed))
        #expect(policy.codeUnambiguous(0x15, weakBits: 0, overstated: false, clearOfNoise: false, believed: believed))
        #expect(policy.codeUnambiguous(0, weakBits: 2, overstated: false, clearOfNoise: false, believed: believed))
    }

    /// Near the noise, and for code 0 below six floors, weak code bits are weighed only with the
    /// channel fit's agreement (see `AcceptancePolicy.codeUnambiguous`).
    @Test func nearTheNoiseTheChannelFitsAgreementWeighsWeakBits() {
        let inUse: Set<Int> = [0, 0x15, 0x05]
        let believed = { inUse.contains($0) }
        // Unless the channel fit decides the same code: then they are weighed as elsewhere.
        #expect(
            policy.codeUnambiguous(
                0x15, weakBits: 1, overstated: false, clearOfNoise: false, fitAgrees: true,
                believed: believed))
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 16, overstated: false, clearOfNoise: false, fitAgrees: true,
                believed: believed))
        // Code 0 whose weak bit would give a station's code: believed below six floors when
        // the fit agrees, not above, and not without the fit.
        #expect(
            policy.codeUnambiguous(
                0, weakBits: 0x05, overstated: false, clearOfNoise: true, strong: false,
                fitAgrees: true, believed: believed))
        #expect(
            !policy.codeUnambiguous(
                0, weakBits: 0x05, overstated: false, clearOfNoise: true, strong: true,
                fitAgrees: true, believed: believed))
        #expect(
            !policy.codeUnambiguous(
                0, weakBits: 0x05, overstated: false, clearOfNoise: false, strong: false,
                fitAgrees: false, believed: believed))
        // A station's code whose weak bit gives another code in use stays refused.
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 16, overstated: false, clearOfNoise: true, strong: false,
                fitAgrees: true, believed: believed))
        // Still at most three weak bits (see `codeZeroMayHaveThreeWeakBitsAtTwoPointFourMegasamples`).
        #expect(
            !policy.codeUnambiguous(
                0, weakBits: 0x0F, overstated: false, clearOfNoise: true, strong: false,
                fitAgrees: true, believed: believed))
    }

    /// The channel fit, which costs a fit, is asked only where its agreement counts.
    @Test func theChannelFitIsAskedOnlyWhereItsAgreementCounts() {
        let inUse: Set<Int> = [0, 0x15, 0x05]
        let believed = { inUse.contains($0) }
        // The fit (costly) is not asked where nothing is weighed, nor clear of the noise.
        // (Outside `#expect`, which evaluates each argument to show it.)
        var fitAsked = false
        let noWeakBit = policy.codeUnambiguous(
            0x15, weakBits: 0, overstated: false, clearOfNoise: false,
            fitAgrees: {
                fitAsked = true
                return false
            }(), believed: believed)
        let clear = policy.codeUnambiguous(
            0x15, weakBits: 1, overstated: false, clearOfNoise: true,
            fitAgrees: {
                fitAsked = true
                return false
            }(), believed: believed)
        // Nor for code 0 whose weak bits give no code in use.
        let squitter = policy.codeUnambiguous(
            0, weakBits: 2, overstated: false, clearOfNoise: false, strong: false,
            fitAgrees: {
                fitAsked = true
                return false
            }(), believed: believed)
        #expect(noWeakBit && clear && squitter && !fitAsked)
    }

    /// An overstated bit refuses a station's code, and where the clipping decides the whole code
    /// weak bits are no doubt.
    @Test func anOverstatedBitAndTheRailsWeighAsTheyShould() {
        let inUse: Set<Int> = [0, 0x15, 0x05]
        let believed = { inUse.contains($0) }
        // An overstated bit refuses a station's code, not code 0.
        #expect(!policy.codeUnambiguous(0x15, weakBits: 0, overstated: true, clearOfNoise: true, believed: believed))
        #expect(policy.codeUnambiguous(0, weakBits: 0, overstated: true, clearOfNoise: true, believed: believed))
        // Where the clipping decides the whole code, weak bits are no doubt.
        #expect(
            policy.codeUnambiguous(
                0x15, weakBits: 0x14, overstated: false, clearOfNoise: true, decidedAtRails: true,
                believed: believed))
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 0x14, overstated: false, clearOfNoise: true, decidedAtRails: false,
                believed: believed))
        // An overstated bit still refuses a station's code.
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 1, overstated: true, clearOfNoise: true, decidedAtRails: true,
                believed: believed))
    }

    /// The clipping is read only for the plain and feedback slices at the best phase, in the
    /// stream itself.
    @Test func theClippingIsReadOnlyAtTheBestPhaseOfTheStream() {
        let stream = AcceptancePolicy.Place(inResidual: false, insideFrame: false)
        let residual = AcceptancePolicy.Place(inResidual: true, insideFrame: false)
        #expect(policy.readsClipping(attempt: SliceAttempt(rank: 0, slicer: .plain), place: stream))
        #expect(policy.readsClipping(attempt: SliceAttempt(rank: 0, slicer: .smearFeedback), place: stream))
        #expect(!policy.readsClipping(attempt: SliceAttempt(rank: 1, slicer: .plain), place: stream))
        #expect(!policy.readsClipping(attempt: SliceAttempt(rank: 0, slicer: .channelFit), place: stream))
        #expect(!policy.readsClipping(attempt: SliceAttempt(rank: 0, slicer: .plain), place: residual))
    }

    @Test func aCodeIsBelievedOnceTwoAircraftAnswerAndUntilTheyStop() {
        var codes = InterrogatorCodes()
        #expect(codes.believes(0, at: 0))
        #expect(!codes.believes(0x15, at: 1))
        let first = codes.vouch(0x15, address: 0x4840D6, time: 1)
        #expect(!first)
        #expect(!codes.believes(0x15, at: 1))
        // The same aircraft again does not confirm it; a second one does.
        let again = codes.vouch(0x15, address: 0x4840D6, time: 2)
        let second = codes.vouch(0x15, address: 0x3C6586, time: 3)
        #expect(!again)
        #expect(second)
        #expect(codes.believes(0x15, at: 3))
        #expect(!codes.believes(0x16, at: 3))
        #expect(codes.believes(0x15, at: 3 + InterrogatorCodes.keepWindow))
        #expect(!codes.believes(0x15, at: 3 + InterrogatorCodes.keepWindow + 1))
    }

    /// From the channel fit, code bits clipped at the rails refuse a station's code, and
    /// hold code 0 to the clean fit a station's code needs elsewhere.
    @Test func clippedCodeBitsFromTheChannelFit() {
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 11)
        bits.setField(6, 8, 5)
        bits.setField(9, 32, 0x4840D6)
        let (squitterCode, stationCode) = (CRC.withParity(bits, overlay: 0), CRC.withParity(bits, overlay: 0x15))
        let fitted = SliceAttempt(rank: 0, slicer: .channelFit)
        func accepts(_ bits: ModeSBits, fitsCleanly: Bool, clipped: Bool) -> Bool {
            policy.acceptsAllCall(
                bits, attempt: fitted, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitsCleanly: fitsCleanly,
                codeDecided: true, codeClipped: clipped)
        }
        #expect(accepts(stationCode, fitsCleanly: true, clipped: false))
        #expect(!accepts(stationCode, fitsCleanly: true, clipped: true))
        #expect(accepts(squitterCode, fitsCleanly: false, clipped: false))
        #expect(!accepts(squitterCode, fitsCleanly: false, clipped: true))
        #expect(accepts(squitterCode, fitsCleanly: true, clipped: true))
    }

    /// In the residual of a cancelled frame, a station's code whose bits lay under that frame
    /// is refused; code 0 is not.
    @Test func aStationsCodeUnderACancelledFrameIsRefused() {
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 11)
        bits.setField(6, 8, 5)
        bits.setField(9, 32, 0x4840D6)
        let plain = SliceAttempt(rank: 0, slicer: .plain)
        func accepts(code: UInt32, underCancelled: Bool) -> Bool {
            policy.acceptsAllCall(
                CRC.withParity(bits, overlay: code), attempt: plain, overlapped: false,
                followedClosely: false, codeBelievable: true, plainAgrees: true,
                codeUnderCancelledFrame: underCancelled)
        }
        #expect(accepts(code: 0x15, underCancelled: false))
        #expect(!accepts(code: 0x15, underCancelled: true))
        #expect(accepts(code: 0, underCancelled: true))
    }

    @Test func aBitsFirstSampleFollowsThePreamble() {
        for rate in SampleRate.allCases {
            let kernels = ReplyKernels(sampleRate: rate)
            // 8 µs of preamble, then one bit per microsecond.
            let perMicrosecond = Double(rate.hertz) / 1e6
            #expect(kernels.firstSample(ofBit: 1) == Int(8 * perMicrosecond))
            #expect(kernels.firstSample(ofBit: 50) == Int(57 * perMicrosecond))
        }
    }

    /// Another reply's pulse refuses a DF11 only over its code bits (the all-call test): over an
    /// earlier bit, a flip would have broken the parity.
    @Test func anotherReplysPulseCountsOnlyOverTheCodeBits() {
        let kernels = ReplyKernels(sampleRate: .twoPointFourMega)
        let checks = InterferenceChecks(
            kernels: kernels, detector: PreambleDetector(kernels: kernels),
            slicer: BitSlicer(kernels: kernels))
        let bits = allCall(address: 0x4840D6, code: 0x3C)
        #expect(AcceptancePolicy.overlapMattersFrom(bits) == 50)
        #expect(
            AcceptancePolicy.overlapMattersFrom(
                RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)) == nil)
        // The reply starts at sample 100 (`SequenceSlicerTests.magnitudes`), at phase 0.
        let start = 100
        let clean = SequenceSlicerTests().magnitudes(
            bits, rate: .twoPointFourMega,
            offset: Double(kernels.phaseOffsets[0]) / 10, amplitude: 30)
        let floor = UInt32(clean[0..<90].reduce(0) { $0 + Int($1) } / 90)
        /// Whether the reply counts as overlapped in `values`, searching from bit `from`.
        func overlapped(_ values: [UInt16], from: Int?) -> Bool {
            values.withUnsafeBufferPointer {
                checks.overlapped(bits, $0.baseAddress! + start, phase: 0, floor: floor, onlyFrom: from)
            }
        }
        /// Whether it does with a spike at the first sample of bit `spikeBit` (nil: none).
        func overlapped(spikeAt spikeBit: Int?, from: Int?) -> Bool {
            var values = clean
            if let spikeBit { values[start + kernels.firstSample(ofBit: spikeBit)] = 60_000 }
            return overlapped(values, from: from)
        }
        #expect(!overlapped(spikeAt: nil, from: nil))
        #expect(!overlapped(spikeAt: nil, from: 50))
        #expect(overlapped(spikeAt: 10, from: nil))
        #expect(!overlapped(spikeAt: 10, from: 50))
        #expect(overlapped(spikeAt: 53, from: 50))
        #expect(overlapped(spikeAt: 50, from: 50))
        // A pulse filling both chips of a bit, at the reply's own level: a loud empty chip.
        let pulse = clean.max()!
        func filled(bit: Int, from: Int?) -> Bool {
            var values = clean
            for index in kernels.firstSample(ofBit: bit)..<kernels.firstSample(ofBit: bit + 1) {
                values[start + index] = pulse
            }
            return overlapped(values, from: from)
        }
        #expect(filled(bit: 48, from: nil))
        #expect(!filled(bit: 48, from: 50))
        #expect(filled(bit: 52, from: 50))
        #expect(!filled(bit: 30, from: nil))
    }

    @Test func theChannelFitOverrulesAStationsCodeOnlyInItsLastFourBits() {
        let outside = AcceptancePolicy.Place(inResidual: false, insideFrame: false)
        let plain = SliceAttempt(rank: 0, slicer: .plain)
        let sliced = allCall(address: 0x4840D6, code: 0x3C)
        func stands(
            _ fitted: ModeSBits?, _ bits: ModeSBits? = nil, attempt: SliceAttempt? = nil,
            place: AcceptancePolicy.Place? = nil, strong: Bool = true
        ) -> Bool {
            policy.codeStandsAgainstChannelFit(
                bits ?? sliced, attempt: attempt ?? plain, place: place ?? outside,
                strong: strong, fitted: { fitted })
        }
        // The fit agrees, or finds no reply: the code stands.
        #expect(stands(sliced))
        #expect(stands(nil))
        // It changes the fourth-last bit (0x3C -> 0x34), the third-last (0x3C -> 0x38), or the
        // last two (0x3C -> 0x3F): refused.
        #expect(!stands(allCall(address: 0x4840D6, code: 0x34)))
        #expect(!stands(allCall(address: 0x4840D6, code: 0x38)))
        #expect(!stands(allCall(address: 0x4840D6, code: 0x3F)))
        // An earlier code bit (0x3C -> 0x2C), alone or with a last one: the fit is not believed.
        #expect(stands(allCall(address: 0x4840D6, code: 0x2C)))
        #expect(stands(allCall(address: 0x4840D6, code: 0x2D)))
        // It also changed bits outside the code (another address): not this reply's fit.
        #expect(stands(allCall(address: 0x4840D7, code: 0x38)))
        // Not asked for code 0, weak replies, residuals, or the fit's own bits.
        let wrong = allCall(address: 0x4840D6, code: 0x38)
        #expect(stands(wrong, allCall(address: 0x4840D6, code: 0)))
        #expect(stands(wrong, strong: false))
        #expect(stands(wrong, place: AcceptancePolicy.Place(inResidual: true, insideFrame: false)))
        #expect(stands(wrong, attempt: SliceAttempt(rank: 0, slicer: .channelFit)))
    }

    @Test func theChannelFitIsOnlyRunWhenTheRuleNeedsIt() {
        var fits = 0
        let coded = allCall(address: 0x4840D6, code: 0x3C)
        let fitted: () -> ModeSBits? = {
            fits += 1
            return coded
        }
        let outside = AcceptancePolicy.Place(inResidual: false, insideFrame: false)
        _ = policy.codeStandsAgainstChannelFit(
            coded, attempt: SliceAttempt(rank: 0, slicer: .plain), place: outside,
            strong: false, fitted: fitted)
        _ = policy.codeStandsAgainstChannelFit(
            allCall(address: 0x4840D6, code: 0),
            attempt: SliceAttempt(rank: 0, slicer: .plain), place: outside,
            strong: true, fitted: fitted)
        #expect(fits == 0)
        _ = policy.codeStandsAgainstChannelFit(
            coded, attempt: SliceAttempt(rank: 0, slicer: .plain), place: outside,
            strong: true, fitted: fitted)
        #expect(fits == 1)
    }
}
