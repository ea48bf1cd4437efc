import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct ChannelFitSlicerTests {
    /// `replies` 400 µs apart, each followed by an echo `gain` times as strong `delay` µs
    /// later, at a phase of its own.
    func echoed(
        _ replies: [ModeSBits], rate: SampleRate, gain: Double, delay: Double, amplitude: Double = 50,
        seed: UInt64 = 11
    ) -> [UInt8] {
        let perMicrosecond = Double(rate.hertz) / 1e6
        var bursts = [RectangularSignal.Burst]()
        for (index, bits) in replies.enumerated() {
            let start = 200 + Double(index) * 400 * perMicrosecond + Double(index % 5) * 0.2
            bursts.append(.init(bits: bits, start: start, amplitude: amplitude, frequencyOffset: 20_000))
            bursts.append(
                .init(
                    bits: bits, start: start + delay * perMicrosecond, amplitude: amplitude * gain,
                    frequencyOffset: 20_000))
        }
        let count = Int((Double(replies.count) * 400 + 200) * perMicrosecond)
        return RectangularSignal(sampleRate: rate, sampleCount: count, seed: seed).bytes(bursts, format: .cu8)
    }

    /// Twenty DF17 replies with echoes (see `echoed`), and their bits.
    func echoedSquitters(rate: SampleRate, gain: Double, delay: Double) -> (bytes: [UInt8], sent: [String]) {
        let replies = (0..<20).map { index in
            RectangularSignal.extendedSquitter(
                address: 0x3C_6500 + UInt32(index),
                payload: 0x58_1234_5678_9000 &+ UInt64(index) &* 0x1_0F0F_F0F1)
        }
        return (echoed(replies, rate: rate, gain: gain, delay: delay), replies.map(\.hex))
    }

    /// Frames with and without the channel fit.
    func frames(_ bytes: [UInt8], rate: SampleRate) -> (without: Set<String>, with: Set<String>) {
        var off = StreamingDemodulator.Options()
        off.channelFit = false
        return (
            Set(demodulate(bytes, format: .cu8, rate: rate, options: off).frames.map(\.bits.hex)),
            Set(demodulate(bytes, format: .cu8, rate: rate).frames.map(\.bits.hex))
        )
    }

    /// A channel-fit slicer at one sample rate, with the canceller it borrows.
    struct Fit {
        let kernels: ReplyKernels
        let slicer: ChannelFitSlicer
        let canceller: ReplyCanceller

        init(rate: SampleRate) {
            kernels = ReplyKernels(sampleRate: rate)
            slicer = ChannelFitSlicer(kernels: kernels)
            canceller = ReplyCanceller(format: .cu8, kernels: kernels, maximumWindow: 4 * kernels.replySpan)
        }

        /// The reply starting at sample `start` of the cu8 `bytes`, sliced at `phase` from
        /// `tentative` bits (the slicer's other answers then refer to it).
        func slice(_ bytes: [UInt8], start: Int = 100, phase: Int = 0, tentative: ModeSBits) -> ModeSBits? {
            let count = bytes.count / 2
            var magnitudes = [UInt16](repeating: 0, count: count)
            return bytes.withUnsafeBytes { raw in
                magnitudes.withUnsafeMutableBufferPointer { values in
                    MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
                    return slicer.slice(
                        raw: raw.baseAddress! + 2 * start, magnitudes: values.baseAddress! + start,
                        phase: phase, tentative: tentative, canceller: canceller)
                }
            }
        }
    }

    /// An echo 0.6 times as strong as the reply, a microsecond late, fills the empty chips
    /// with pulses that magnitudes cannot always tell from the reply's own, depending on
    /// the echo's phase; with the echo as a tap of the fitted channel nearly every reply is
    /// decided, and nothing else comes out.
    @Test(arguments: SampleRate.allCases)
    func repliesWithAStrongEchoAreDecidedOnTheirOwnChannel(rate: SampleRate) {
        let (bytes, sent) = echoedSquitters(rate: rate, gain: 0.6, delay: 1.0)
        let (without, with) = frames(bytes, rate: rate)
        #expect(with.isSubset(of: Set(sent)), "frames that were never sent: \(with.subtracting(sent))")
        #expect(without.isSubset(of: with))
        #expect(with.count >= 16, "\(with.count) of 20 with the channel fit")
        #expect(with.count >= without.count + 3, "\(without.count) without, \(with.count) with")
    }

    /// All-call replies to one ground station, each with the station's interrogator code
    /// and an echo: the magnitude checks read the echo in the empty chips as another reply
    /// across the code; the channel fit's model explains it, and the code is believed
    /// because other aircraft answered with it too. At 2.4 MS/s the magnitudes decide most
    /// of them as well (their weak code bits point at no other code in use, see
    /// `AcceptancePolicy.codeUnambiguous`); at 2.0 MS/s the channel fit adds at least four.
    @Test(arguments: SampleRate.allCases)
    func echoedAllCallsWithACodeOthersShareAreDecided(rate: SampleRate) {
        let replies = (0..<20).map { index -> ModeSBits in
            var bits = ModeSBits(bitCount: 56)
            bits.setField(1, 5, 11)
            bits.setField(6, 8, 5)
            bits.setField(9, 32, UInt64(0x48_4100 + index * 7))
            return CRC.withParity(bits, overlay: 0x15)
        }
        let (without, with) = frames(echoed(replies, rate: rate, gain: 0.4, delay: 1.0, amplitude: 60), rate: rate)
        #expect(
            with.isSubset(of: Set(replies.map(\.hex))),
            "frames that were never sent: \(with.subtracting(replies.map(\.hex)))")
        #expect(with.count >= 16, "\(with.count) of 20 with the channel fit")
        #expect(
            with.count >= without.count + (rate == .twoMega ? 4 : 0), "\(without.count) without, \(with.count) with")
    }

    /// At 2.0 MS/s, a reply half a sample off shows only where its bits change: turning
    /// over a run of equal bits changes just the two samples at its ends, so the run
    /// decided wrong costs as little as one wrong bit, and no flip of one or two bits
    /// lowers the error. The final search over whole sequences (`FittedSequence`) turns
    /// every such run back.
    @Test func aRunOfEqualBitsDecidedWrongHalfASampleOffIsTurnedBack() {
        let fit = Fit(rate: .twoMega)
        let bits = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x99_0FF0_5A6B_7C81)
        // The runs of three or more equal bits after the format.
        var runs = [Range<Int>]()
        var first = 6
        for number in 7...(bits.bitCount + 1) where number > bits.bitCount || bits.bit(number) != bits.bit(first) {
            if number - first >= 3 { runs.append(first..<number) }
            first = number
        }
        #expect(runs.count >= 6)
        for (index, run) in runs.enumerated() {
            // Half a sample off: phase 2 (5 tenths) is the reply's own.
            let signal = RectangularSignal(sampleRate: .twoMega, sampleCount: 800, seed: 40 + UInt64(index))
            let bytes = signal.bytes(
                [.init(bits: bits, start: 100.5, amplitude: 40, frequencyOffset: 15_000)],
                format: .cu8)
            var tentative = bits
            for number in run { tentative.flipBit(number) }
            #expect(fit.slice(bytes, phase: 2, tentative: tentative)?.hex == bits.hex, "bits \(run) turned")
        }
    }

    /// At 2.0 MS/s a reply half a sample off is sliced with many wrong bits however strong
    /// it is. A slice with every fourth bit wrong and a few more correlates too little with
    /// the samples for the 2.4 MS/s threshold (0.47 to 0.54), but not for the 2.0 MS/s one,
    /// and the fit decides it.
    @Test(arguments: [11, 13, 24])
    func aStrongReplySlicedWithManyWrongBitsIsStillFitted(alsoEvery every: Int) {
        let fit = Fit(rate: .twoMega)
        let bits = RectangularSignal.extendedSquitter(address: 0x4CA2D6, payload: 0x99_0FF0_5A6B_7C81)
        let signal = RectangularSignal(sampleRate: .twoMega, sampleCount: 800, seed: 60)
        let bytes = signal.bytes(
            [.init(bits: bits, start: 100.5, amplitude: 60, frequencyOffset: 15_000)], format: .cu8)
        var tentative = bits
        for number in stride(from: 7, through: bits.bitCount, by: 4) { tentative.flipBit(number) }
        for number in stride(from: 9, through: bits.bitCount, by: every) { tentative.flipBit(number) }
        #expect(fit.slice(bytes, phase: 2, tentative: tentative)?.hex == bits.hex)
    }

    /// The slicer on its own: a clean reply whose tentative bits carry three errors comes
    /// out whole, its corrected bits confident; noise never gets past the gates.
    @Test(arguments: SampleRate.allCases)
    func wrongBitsAreCorrectedAndNoiseIsTurnedAway(rate: SampleRate) {
        let kernels = ReplyKernels(sampleRate: rate)
        let slicer = ChannelFitSlicer(kernels: kernels)
        let canceller = ReplyCanceller(format: .cu8, kernels: kernels, maximumWindow: 4 * kernels.replySpan)
        let bits = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let count = 1000
        for (phase, offset) in kernels.phaseOffsets.enumerated() {
            let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 5 + UInt64(phase))
            let bytes = signal.bytes(
                [
                    .init(
                        bits: bits, start: 100 + Double(offset) / 10, amplitude: 30,
                        frequencyOffset: -35_000)
                ], format: .cu8)
            var magnitudes = [UInt16](repeating: 0, count: count)
            var tentative = bits
            for number in [20, 47, 90] { tentative.flipBit(number) }
            let confidence = UnsafeMutablePointer<Int32>.allocate(capacity: ReplyKernels.maximumBits)
            defer { confidence.deallocate() }
            bytes.withUnsafeBytes { raw in
                magnitudes.withUnsafeMutableBufferPointer { values in
                    MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
                    let decided = slicer.slice(
                        raw: raw.baseAddress! + 200, magnitudes: values.baseAddress! + 100,
                        phase: phase, tentative: tentative, canceller: canceller)
                    #expect(decided?.hex == bits.hex, "phase \(offset) tenths")
                    slicer.confidence(bitCount: bits.bitCount, into: confidence)
                    for number in [20, 47, 90] {
                        #expect(confidence[number - 1] >= ChannelFitSlicer.typicalConfidence / 2)
                    }
                    // Noise (the samples after the reply), with any tentative bits.
                    for start in stride(from: 450, to: 700, by: 5) {
                        let noise = slicer.slice(
                            raw: raw.baseAddress! + 2 * start, magnitudes: values.baseAddress! + start,
                            phase: phase, tentative: bits, canceller: canceller)
                        #expect(noise == nil, "noise at \(start) decided as \(noise?.hex ?? "")")
                    }
                }
            }
        }
    }

    /// An acquisition squitter (code 0) sliced on its own channel has every code bit
    /// decided; with its last bit's two chips made even (both empty, both on, or half a
    /// pulse in each) that bit is near-even, and the code is not taken as decided.
    @Test(arguments: SampleRate.allCases)
    func aCodeBitWithEvenChipsIsNotDecided(rate: SampleRate) {
        let fit = Fit(rate: rate)
        let kernels = fit.kernels
        var header = ModeSBits(bitCount: 56)
        header.setField(1, 5, 11)
        header.setField(6, 8, 5)
        header.setField(9, 32, 0x4840D6)
        let squitter = CRC.withParity(header, overlay: 0)
        var flipped = squitter
        flipped.flipBit(56)
        let count = 1000
        let start = 100 + Double(kernels.phaseOffsets[0]) / 10
        // The same seed gives the same noise and carrier phase, with or without a reply.
        let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 21)
        let burst = { (bits: ModeSBits?) in
            signal.bytes(
                bits.map { [.init(bits: $0, start: start, amplitude: 25, frequencyOffset: 15_000)] } ?? [],
                format: .cu8)
        }
        let (clean, other, noise) = (burst(squitter), burst(flipped), burst(nil))
        let perMicrosecond = Double(rate.hertz) / 1e6
        let lastBit = start + (8 + 55) * perMicrosecond
        /// The clean recording with each sample the last bit touches replaced by
        /// `combine(clean, other, noise)` of the three recordings' components.
        func even(_ combine: (Int, Int, Int) -> Int) -> [UInt8] {
            var bytes = clean
            for sample in Int(lastBit.rounded(.down))..<Int((lastBit + perMicrosecond).rounded(.up)) {
                for index in 2 * sample...2 * sample + 1 {
                    bytes[index] = UInt8(
                        max(
                            0,
                            min(
                                255,
                                combine(
                                    Int(clean[index]), Int(other[index]),
                                    Int(noise[index])))))
                }
            }
            return bytes
        }
        let halfPulses = even { clean, other, _ in (clean + other) / 2 }
        let bothOn = even { clean, other, noise in clean + other - noise }
        let bothEmpty = even { _, _, noise in noise }
        for (name, bytes, decided) in [
            ("clean", clean, true), ("half pulses", halfPulses, false),
            ("both chips on", bothOn, false), ("both chips empty", bothEmpty, false)
        ] {
            #expect(fit.slice(bytes, tentative: squitter) != nil, "\(name)")
            #expect(fit.slicer.codeBitsDecided(bitCount: 56) == decided, "\(name)")
        }
    }

    /// A reply at the converter's rails, 55 kHz off the tuned frequency, with an echo:
    /// nearly every sample on its pulses is clipped, so the carrier comes from the echoes and
    /// edges between them; its tentative bits' errors are corrected, and its code bits are
    /// reported clipped.
    @Test(arguments: SampleRate.allCases)
    func aReplyAtTheRailsIsFittedThroughItsEchoes(rate: SampleRate) {
        let fit = Fit(rate: rate)
        let kernels = fit.kernels
        let bits = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let count = 1000
        let perMicrosecond = Double(rate.hertz) / 1e6
        let start = 100 + Double(kernels.phaseOffsets[0]) / 10
        let signal = RectangularSignal(sampleRate: rate, sampleCount: count, seed: 9)
        let bytes = signal.bytes(
            [
                .init(bits: bits, start: start, amplitude: 165, frequencyOffset: -55_000),
                .init(
                    bits: bits, start: start + 0.75 * perMicrosecond, amplitude: 60,
                    frequencyOffset: -55_000)
            ], format: .cu8)
        let clipped = stride(from: 0, to: bytes.count, by: 2).filter {
            bytes[$0] == 0 || bytes[$0] == 255
                || bytes[$0 + 1] == 0 || bytes[$0 + 1] == 255
        }.count
        #expect(clipped > 40, "\(clipped) clipped samples")
        var tentative = bits
        for number in [30, 75] { tentative.flipBit(number) }
        #expect(fit.slice(bytes, tentative: tentative)?.hex == bits.hex)
        #expect(fit.slicer.codeClipped(bitCount: bits.bitCount))
    }

    /// Samples made by known taps and a constant from an envelope, with no noise, give those
    /// taps back, whichever samples are left out as clipped: each sample is paired with the
    /// envelope values the model says it sees.
    @Test func theFitRecoversTheTapsThatMadeTheSamples() {
        let span = 120
        let padding = 8
        var generator = SystemRandomNumberGenerator()
        var envelope = [Float](repeating: 0, count: span + 2 * padding)
        for index in padding..<(padding + span) {
            envelope[index] = Float(Int.random(in: 0...2, using: &generator)) / 2
        }
        // Taps g[k] for k = −1 ... 4 (precursor first), then the constant.
        let real: [Float] = [0.1, 1.0, 0.3, -0.2, 0.05, 0.4, 0.02]
        let imaginary: [Float] = [0.0, 0.2, -0.1, 0.15, 0.0, -0.3, -0.01]
        var samples = [Float](repeating: 0, count: 2 * span)
        var clipped = [Bool](repeating: false, count: span)
        for j in 0..<span {
            var (re, im) = (real[6], imaginary[6])
            for tap in 0..<6 {
                let value = envelope[padding + j + 1 - tap]
                re += real[tap] * value
                im += imaginary[tap] * value
            }
            (samples[2 * j], samples[2 * j + 1]) = (re, im)
            clipped[j] = j % 17 == 5
        }
        let model = envelope.withUnsafeBufferPointer { e in
            samples.withUnsafeBufferPointer { y in
                clipped.withUnsafeBufferPointer { c in
                    ChannelTaps().fit(
                        envelope: e.baseAddress! + padding, samples: y.baseAddress!,
                        clipped: c.baseAddress!, span: span)
                }
            }
        }
        #expect(model != nil)
        guard let model else { return }
        for index in 0..<7 {
            #expect(abs(model.real[index] - real[index]) < 1e-3, "real \(index)")
            #expect(abs(model.imaginary[index] - imaginary[index]) < 1e-3, "imaginary \(index)")
        }
    }
}
