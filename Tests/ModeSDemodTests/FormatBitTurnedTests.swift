import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// `BitSlicer.sliceWithFormatBitTurned`: a candidate whose format came out one bit from 17
/// or 11 starts the channel fit as a squitter or an all-call reply.
@Suite(.computeBound) struct FormatBitTurnedTests {
    /// The plain slice and the slice with a format bit turned of `sent`, transmitted cleanly at `rate`.
    func slices(_ sent: ModeSBits, rate: SampleRate) -> (plain: ModeSBits?, turned: ModeSBits?) {
        let slicer = BitSlicer(kernels: ReplyKernels(sampleRate: rate))
        return withCleanReply(sent, rate: rate, seed: 17) { samples in
            (slicer.slice(samples, phase: 0, feedback: 0), slicer.sliceWithFormatBitTurned(samples, phase: 0))
        }
    }

    /// A squitter whose format reads 1, 19 or 25 (one bit wrong), or an all-call reply whose
    /// format reads 3, 9, 10, 15 or 27, is refused by the plain slice, and sliced with its
    /// format turned back and every other bit as decided.
    @Test(arguments: SampleRate.allCases)
    func aFormatOneBitFromSeventeenOrElevenIsTurnedBack(rate: SampleRate) {
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x58_1234_5678_9ABC)
        var allCall = ModeSBits(bitCount: 56)
        allCall.setField(1, 5, 11)
        allCall.setField(6, 8, 5)
        allCall.setField(9, 32, 0x4CA2D6)
        allCall = CRC.withParity(allCall, overlay: 0)
        for (reply, formats) in [(squitter, [1, 19, 25]), (allCall, [3, 9, 10, 15, 27])] {
            for format in formats {
                var sent = reply
                sent.setField(1, 5, UInt64(format))
                let (plain, turned) = slices(sent, rate: rate)
                #expect(plain == nil, "format \(format)")
                #expect(turned?.hex == reply.hex, "format \(format)")
            }
        }
    }

    /// Formats further from both (surveillance replies, other reserved formats) are not
    /// turned, nor are 17 and 11 themselves (their plain slices serve).
    @Test(arguments: SampleRate.allCases)
    func otherFormatsAreNotTurned(rate: SampleRate) {
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x58_1234_5678_9ABC)
        for format in [17, 11, 4, 20, 24, 31] {
            var sent = squitter
            sent.setField(1, 5, UInt64(format))
            #expect(slices(sent, rate: rate).turned == nil, "format \(format)")
        }
        #expect(BitSlicer.formatOneBitFrom(16) == nil && BitSlicer.formatOneBitFrom(21) == nil)
    }
}
