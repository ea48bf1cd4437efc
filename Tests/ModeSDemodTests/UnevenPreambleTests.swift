import ModeS
import Simulator
import TestSupport
import Testing

@testable import ModeSDemod

/// A start whose preamble has one pair of pulses nearly empty is not sliced
/// (`AcceptancePolicy.preambleTooUneven`); a reply's own start never is, even near the noise.
@Suite(.computeBound) struct UnevenPreambleTests {
    /// The magnitudes of a 2.4 MS/s recording holding `bursts` over noise of `seed`, and its
    /// noise floor (the mean magnitude of its first 500 samples, which hold no reply).
    static func magnitudes(
        _ bursts: [RectangularSignal.Burst], seed: UInt64,
        count: Int = 3_000
    ) -> (values: [UInt16], floor: UInt32) {
        let bytes = RectangularSignal(sampleRate: .twoPointFourMega, sampleCount: count, seed: seed)
            .bytes(bursts, format: .cu8)
        var values = [UInt16](repeating: 0, count: count)
        bytes.withUnsafeBytes { raw in
            values.withUnsafeMutableBufferPointer {
                MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: $0.baseAddress!)
            }
        }
        return (values, values[0..<500].reduce(0) { $0 + UInt32($1) } / 500)
    }

    /// The uneven-preamble test at `start` of `values`, at the best phase the preamble detector
    /// finds there; nil when no phase passes the detector (the start would not be examined at all).
    static func tooUneven(_ values: [UInt16], at start: Int, floor: UInt32) -> Bool? {
        let detector = PreambleDetector(kernels: ReplyKernels(sampleRate: .twoPointFourMega))
        return values.withUnsafeBufferPointer { buffer in
            let samples = buffer.baseAddress! + start
            let phases = detector.phases(at: samples, floor: floor)
            guard phases.count > 0 else { return nil }
            let pairs = detector.pulsePairs(at: samples, phase: phases.index(0), floor: floor)
            return AcceptancePolicy.preambleTooUneven(strong: pairs.strong, weak: pairs.weak, floor: floor)
        }
    }

    static let squitter = RectangularSignal.extendedSquitter(address: 0x4CA123, payload: 0x58_1234_5678_9ABC)

    @Test func theLouderPairMustStandFourFloorsUpAndTheOtherBelowAnEighthOfIt() {
        #expect(AcceptancePolicy.preambleTooUneven(strong: 800, weak: 99, floor: 200))
        #expect(!AcceptancePolicy.preambleTooUneven(strong: 800, weak: 100, floor: 200))
        #expect(!AcceptancePolicy.preambleTooUneven(strong: 799, weak: 0, floor: 200))
        #expect(AcceptancePolicy.preambleTooUneven(strong: 4000, weak: -50, floor: 200))
    }

    /// A reply whose pulses stand four to eight floors above the noise floor, at every
    /// sub-sample offset and over many draws of the noise: its own start is never refused,
    /// though its pairs stand just where the rule starts to look.
    @Test(arguments: [14.0, 20.0, 28.0])
    func aReplyNearTheNoiseIsNeverRefused(amplitude: Double) {
        var examined = 0
        for seed in UInt64(1)...100 {
            let offset = Double(seed % 10) / 10
            let burst = RectangularSignal.Burst(bits: Self.squitter, start: 1_000 + offset, amplitude: amplitude)
            let (values, floor) = Self.magnitudes([burst], seed: seed)
            guard let uneven = Self.tooUneven(values, at: 1_000, floor: floor) else { continue }
            examined += 1
            #expect(!uneven, "seed \(seed), amplitude \(amplitude)")
        }
        #expect(examined >= 90)
    }

    /// Before a strong reply, the starts whose last pair of pulses lies on the reply's first
    /// two are refused, whatever the reply's sub-sample offset.
    @Test func theStartsHalfOnAStrongReplysFirstPulsesAreRefused() {
        for tenth in 0..<10 {
            let burst = RectangularSignal.Burst(bits: Self.squitter, start: 1_000 + Double(tenth) / 10, amplitude: 100)
            let (values, floor) = Self.magnitudes([burst], seed: 3)
            // 3.5 µs is 8.4 samples: the starts about that far before the reply.
            let refused = (991...992).compactMap { Self.tooUneven(values, at: $0, floor: floor) }
            #expect(!refused.isEmpty && refused.allSatisfy { $0 }, "offset \(tenth)/10")
            #expect(Self.tooUneven(values, at: 1_000, floor: floor) == false, "offset \(tenth)/10")
        }
    }

    /// In a stream of strong squitters, such starts (those the shadow rule, asked first, left:
    /// a few in all) are counted and not sliced, and every squitter is still found.
    @Test func aStreamOfStrongRepliesKeepsEveryReply() {
        let bursts = (0..<20).map { index in
            RectangularSignal.Burst(
                bits: RectangularSignal.extendedSquitter(
                    address: 0x4CA100 + UInt32(index),
                    payload: 0x58_0000_0000_0000 + UInt64(index)),
                start: 2_000 + 1_000 * Double(index) + Double(index % 10) / 10,
                amplitude: 60)
        }
        let bytes = RectangularSignal(sampleRate: .twoPointFourMega, sampleCount: 24_000, seed: 9)
            .bytes(bursts, format: .cu8)
        let (frames, _, statistics) = demodulate(bytes, format: .cu8, rate: .twoPointFourMega)
        #expect(frames.map(\.bits) == bursts.map(\.bits))
        #expect(statistics.unevenStarts > 0)
    }
}
