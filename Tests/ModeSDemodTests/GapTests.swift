import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// Samples lost on the way (a receiver that fell behind): the demodulator must keep the
/// sample clock and must not join what came before and after the gap.
@Suite(.computeBound) struct GapTests {
    static let rate = SampleRate.twoPointFourMega

    /// Ten replies 700 samples apart; reply 5 repeats reply 4's bits at exactly 700 samples
    /// later, so a stream cut inside reply 4 and resumed 700 samples later reads as one
    /// perfect copy of reply 4 when the two sides are joined.
    func recording() -> (bytes: [UInt8], bursts: [RectangularSignal.Burst]) {
        let signal = RectangularSignal(sampleRate: Self.rate, sampleCount: 13_000, seed: 11)
        var bursts = (0..<10).map { index in
            RectangularSignal.Burst(
                bits: RectangularSignal.extendedSquitter(
                    address: 0x3C0000 + UInt32(index),
                    payload: UInt64(index) * 0x2468_ACE0_1357),
                start: 5000 + Double(index) * 700 + 0.3, amplitude: 40)
        }
        bursts[5].bits = bursts[4].bits
        bursts[5].start = bursts[4].start + 700
        return (signal.bytes(bursts, format: .cu8), bursts)
    }

    /// Feeds `bytes` but drops samples `gap` (reporting them as lost).
    func demodulate(_ bytes: [UInt8], dropping gap: Range<Int>) -> (frames: [Frame], statistics: DemodulatorStatistics)
    {
        let demodulator = StreamingDemodulator(format: .cu8, sampleRate: Self.rate)
        var frames = [Frame]()
        bytes.withUnsafeBytes { raw in
            demodulator.process(UnsafeRawBufferPointer(rebasing: raw[0..<(gap.lowerBound * 2)])) { frames.append($0) }
            demodulator.resume(afterDropping: gap.count) { frames.append($0) }
            demodulator.process(UnsafeRawBufferPointer(rebasing: raw[(gap.upperBound * 2)...])) { frames.append($0) }
        }
        demodulator.finish { frames.append($0) }
        return (frames, demodulator.statistics)
    }

    @Test func timestampsAfterAGapCountTheLostSamples() {
        let (bytes, bursts) = recording()
        // Lose 300 samples between replies 1 and 2.
        let start = Int(bursts[1].start) + 400
        let (frames, statistics) = demodulate(bytes, dropping: start..<(start + 300))
        let unbroken = ModeSDemodTests.demodulate(bytes, format: .cu8, rate: Self.rate).frames
        #expect(unbroken.count == 10)
        #expect(frames == unbroken, "the same frames at the same 12 MHz times")
        #expect(statistics.droppedSamples == 300)
        #expect(statistics.samples == bytes.count / 2 - 300)
    }

    @Test func aReplyCutByTheGapIsNotJoinedToTheSamplesAfterIt() {
        let (bytes, bursts) = recording()
        // Cut 150 samples into reply 4 and resume 150 samples into reply 5: joined, the two
        // halves would be reply 4 whole.
        let cut = Int(bursts[4].start) + 150
        let (frames, statistics) = demodulate(bytes, dropping: cut..<(cut + 700))
        let expected = bursts.enumerated().filter { $0.offset != 4 && $0.offset != 5 }.map(\.element.bits)
        #expect(frames.map(\.bits) == expected)
        #expect(statistics.droppedSamples == 700)
    }
}
