import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// `BitSlicer.confidence`: every bit the judged reply has is scored, whatever format the
/// slicer's own decisions spell. The bits judged may come from another slicer (the
/// sequence's, or with a format bit turned), and a score left unwritten would be one from
/// an earlier candidate.
@Suite(.computeBound) struct BitConfidenceTests {
    /// The confidences of the first `bitCount` bits of `sent`, transmitted cleanly at `rate`,
    /// written over a buffer that held -1 everywhere.
    func confidences(_ sent: ModeSBits, rate: SampleRate, bitCount: Int, feedback: Int32) -> [Int32] {
        let slicer = BitSlicer(kernels: ReplyKernels(sampleRate: rate))
        var scores = [Int32](repeating: -1, count: ReplyKernels.maximumBits)
        withCleanReply(sent, rate: rate, seed: 23) { samples in
            scores.withUnsafeMutableBufferPointer { buffer in
                slicer.confidence(samples, phase: 0, feedback: feedback, bitCount: bitCount, into: buffer.baseAddress!)
            }
        }
        return scores
    }

    /// A squitter whose format reads 19 (which the slicer refuses after five bits) gets a
    /// score for each of its 112 bits, the same as the squitter itself beyond the format,
    /// and none past them; so does the all-call reply it would be if it were 56 bits long.
    @Test(arguments: SampleRate.allCases, [Int32(0), BitSlicer.smearFeedback])
    func everyBitIsScoredWhateverTheFormat(rate: SampleRate, feedback: Int32) {
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x58_1234_5678_9ABC)
        var refused = squitter
        refused.setField(1, 5, 19)
        let clean = confidences(squitter, rate: rate, bitCount: 112, feedback: feedback)
        let scored = confidences(refused, rate: rate, bitCount: 112, feedback: feedback)
        #expect(scored[0..<112].allSatisfy { $0 > 0 })
        // Bits next to the turned format bit share its chips' samples and feedback.
        #expect(Array(scored[6..<112]) == Array(clean[6..<112]))
        let short = confidences(refused, rate: rate, bitCount: 56, feedback: feedback)
        #expect(short[0..<56].allSatisfy { $0 > 0 })
        #expect(short[56...].allSatisfy { $0 == -1 })
    }
}
