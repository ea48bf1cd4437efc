import IQ
import TestSupport
import Testing

@testable import ModeSDemod

/// The start 3.5 µs before a much stronger preamble is not sliced
/// (`AcceptancePolicy.shadowsStrongerPreamble`), and a reply's own start never is.
@Suite(.computeBound) struct ShadowStartTests {
    /// The rule at the start `start` of `samples`, with that start's own best score, by the
    /// gate and preamble detector of `rate`.
    func isShadow(_ samples: [UInt16], at start: Int, floor: UInt32, rate: SampleRate) -> Bool {
        let detector = PreambleDetector(kernels: ReplyKernels(sampleRate: rate))
        return samples.withUnsafeBufferPointer { buffer in
            let own = detector.phases(at: buffer.baseAddress! + start, floor: floor)
            let score = own.count > 0 ? own.score(0) : 0
            return switch rate {
            case .twoPointFourMega:
                Gate2400.shadowsStrongerPreamble(
                    buffer.baseAddress! + start, score: score, floor: floor, detector: detector)
            case .twoMega:
                Gate2000.shadowsStrongerPreamble(
                    buffer.baseAddress! + start, score: score, floor: floor, detector: detector)
            }
        }
    }

    /// 3.5 µs in whole samples, rounded down.
    static func shadowDistance(_ rate: SampleRate) -> Int { rate == .twoPointFourMega ? 8 : 7 }

    @Test func bothMarginsMustBeMet() {
        // The contrast must exceed 1.5 times, the score twice the start's own.
        #expect(AcceptancePolicy.shadowsStrongerPreamble(contrast: 100, laterContrast: 151) { (100, 201) })
        #expect(!AcceptancePolicy.shadowsStrongerPreamble(contrast: 100, laterContrast: 150) { (100, 1000) })
        #expect(!AcceptancePolicy.shadowsStrongerPreamble(contrast: 100, laterContrast: 1000) { (100, 200) })
        // The scores are only computed when the contrasts call for them.
        var scored = false
        _ = AcceptancePolicy.shadowsStrongerPreamble(contrast: 100, laterContrast: 120) {
            scored = true
            return (100, 1000)
        }
        #expect(!scored)
    }

    /// A strong reply at every sub-sample offset: the start 3.5 µs before it, where its first
    /// pulses stand in for a preamble's last two, is its shadow; its own start is not, nor
    /// the one just before it.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func theStartThreeAndAHalfMicrosecondsEarlierIsAShadow(rate: SampleRate) {
        let floor: UInt32 = 200
        for tenth in 0..<10 {
            // The reply starts at 8 + tenth/10 (see `CandidateGateTests.reply`); 40 samples of
            // floor in front of it hold the shadow's start.
            let reply = CandidateGateTests.reply(
                bits: [1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1], offset: Double(tenth) / 10,
                rate: rate, amplitude: 20 * Double(floor), floor: Double(floor))
            let samples = [UInt16](repeating: UInt16(floor), count: 40) + reply
            let start = 48
            #expect(
                isShadow(samples, at: start - Self.shadowDistance(rate), floor: floor, rate: rate),
                "offset \(tenth)/10")
            #expect(!isShadow(samples, at: start, floor: floor, rate: rate), "offset \(tenth)/10")
            #expect(!isShadow(samples, at: start - 1, floor: floor, rate: rate), "offset \(tenth)/10")
        }
    }

    /// A reply followed 3.5 µs later by one as strong keeps its start: only a much stronger
    /// preamble casts a shadow.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func aReplyBeforeOneAsStrongIsKept(rate: SampleRate) {
        let floor: UInt32 = 200
        let first = CandidateGateTests.reply(
            bits: [1, 0, 1, 0, 1, 0], offset: 0, rate: rate,
            amplitude: 20 * Double(floor), floor: 0)
        // The second starts 3.5 µs after the first; both stand on the same floor.
        let delay = 3.5e-6 * Double(rate.hertz)
        let second = CandidateGateTests.reply(
            bits: [1, 0, 1, 0, 1, 0], offset: delay - delay.rounded(.down), rate: rate,
            amplitude: 20 * Double(floor), floor: 0)
        var samples = [UInt16](repeating: UInt16(floor), count: first.count + 16)
        for (index, value) in first.enumerated() { samples[index] += value }
        let shift = Int(delay.rounded(.down))
        for (index, value) in second.enumerated() where index + shift < samples.count {
            samples[index + shift] += value
        }
        #expect(!isShadow(samples, at: 8, floor: floor, rate: rate))
    }
}
