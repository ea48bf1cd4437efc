import IQ
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct ReplyCancellerEnvelopeTests {
    /// The envelope added up chip by chip into zeros, in chip order: what
    /// `ReplyCanceller.buildEnvelope` must give exactly (to the bit), whatever way it is
    /// computed.
    func chipByChip(_ bits: ModeSBits, originTenths: Int, span: Int, chip: Int) -> [Float] {
        var envelope = [Float](repeating: 0, count: span)
        var on = Array(ReplyKernels.preamblePulseChips).sorted()
        for bit in 0..<bits.bitCount {
            on.append(ReplyKernels.preambleChips + 2 * bit + (bits.bit(bit + 1) == 1 ? 0 : 1))
        }
        for index in on {
            let start = originTenths + index * chip
            let end = start + chip
            var sample = start / 10
            while sample < span, 10 * sample < end {
                let overlap = min(10 * sample + 10, end) - max(10 * sample, start)
                envelope[sample] += Float(overlap) / 10
                sample += 1
            }
        }
        return envelope
    }

    @Test(arguments: [SampleRate.twoMega, .twoPointFourMega])
    func envelopeMatchesChipByChipSums(rate: SampleRate) {
        let kernels = ReplyKernels(sampleRate: rate)
        let canceller = ReplyCanceller(format: .cu8, kernels: kernels, maximumWindow: 4 * kernels.replySpan)
        var random = SplitMix(state: 0x5EED)
        for trial in 0..<200 {
            var bits = ModeSBits(bitCount: trial % 2 == 0 ? 112 : 56)
            for bit in 1...bits.bitCount where Bool.random(using: &random) { bits.flipBit(bit) }
            let originTenths = Int.random(in: 0...31, using: &random)
            // Spans shorter and longer than the reply, as far as `residual` takes them.
            let span = kernels.span(bitCount: bits.bitCount) + Int.random(in: -20...2, using: &random)
            // Whatever an earlier call left in the buffer must not show.
            canceller.envelope.update(repeating: 7, count: span)
            canceller.buildEnvelope(bits, originTenths: originTenths, span: span)
            let expected = chipByChip(bits, originTenths: originTenths, span: span, chip: rate.tenthsPerChip)
            let mismatch = (0..<span).first { canceller.envelope[$0].bitPattern != expected[$0].bitPattern }
            let sample = mismatch ?? 0
            #expect(
                mismatch == nil,
                """
                origin \(originTenths), span \(span): sample \(sample) is \(canceller.envelope[sample]), \
                chip by chip \(expected[sample])
                """)
        }
    }
}
