import Testing
@testable import ModeS
@testable import ModeSDemod
import Simulator

@Suite struct ChannelFitSlicerTests {
    /// `replies` 400 µs apart, each followed by an echo `gain` times as strong `delay` µs
    /// later, at a phase of its own.
    func echoed(_ replies: [ModeSBits], rate: SampleRate, gain: Double, delay: Double, amplitude: Double = 50,
                seed: UInt64 = 11) -> [UInt8] {
        let perMicrosecond = Double(rate.hertz) / 1e6
        var bursts = [RectangularSignal.Burst]()
        for (index, bits) in replies.enumerated() {
            let start = 200 + Double(index) * 400 * perMicrosecond + Double(index % 5) * 0.2
            bursts.append(.init(bits: bits, start: start, amplitude: amplitude, frequencyOffset: 20_000))
            bursts.append(.init(bits: bits, start: start + delay * perMicrosecond, amplitude: amplitude * gain,
                                frequencyOffset: 20_000))
        }
        let count = Int((Double(replies.count) * 400 + 200) * perMicrosecond)
        return RectangularSignal(sampleRate: rate, sampleCount: count, seed: seed).bytes(bursts, format: .cu8)
    }

    /// Twenty DF17 replies with echoes (see `echoed`), and their bits.
    func echoedSquitters(rate: SampleRate, gain: Double, delay: Double) -> (bytes: [UInt8], sent: [String]) {
        let replies = (0..<20).map { index in
            RectangularSignal.extendedSquitter(address: 0x3C_6500 + UInt32(index),
                                               payload: 0x58_1234_5678_9000 &+ UInt64(index) &* 0x1_0F0F_F0F1)
        }
        return (echoed(replies, rate: rate, gain: gain, delay: delay), replies.map(\.hex))
    }

    /// Frames with and without the channel fit.
    func frames(_ bytes: [UInt8], rate: SampleRate) -> (without: Set<String>, with: Set<String>) {
        var off = StreamingDemodulator.Options()
        off.channelFit = false
        return (Set(demodulate(bytes, format: .cu8, rate: rate, options: off).frames.map(\.bits.hex)),
                Set(demodulate(bytes, format: .cu8, rate: rate).frames.map(\.bits.hex)))
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
    /// because other aircraft answered with it too.
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
        #expect(with.isSubset(of: Set(replies.map(\.hex))), "frames that were never sent: \(with.subtracting(replies.map(\.hex)))")
        #expect(with.count >= 16, "\(with.count) of 20 with the channel fit")
        #expect(with.count >= without.count + 4, "\(without.count) without, \(with.count) with")
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
            let bytes = signal.bytes([.init(bits: bits, start: 100 + Double(offset) / 10, amplitude: 30,
                                            frequencyOffset: -35_000)], format: .cu8)
            var magnitudes = [UInt16](repeating: 0, count: count)
            var tentative = bits
            for number in [20, 47, 90] { tentative.flipBit(number) }
            let confidence = UnsafeMutablePointer<Int32>.allocate(capacity: ReplyKernels.maximumBits)
            defer { confidence.deallocate() }
            bytes.withUnsafeBytes { raw in
                magnitudes.withUnsafeMutableBufferPointer { values in
                    MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: count, into: values.baseAddress!)
                    let decided = slicer.slice(raw: raw.baseAddress! + 200, magnitudes: values.baseAddress! + 100,
                                               phase: phase, tentative: tentative, canceller: canceller)
                    #expect(decided?.hex == bits.hex, "phase \(offset) tenths")
                    slicer.confidence(bitCount: bits.bitCount, into: confidence)
                    for number in [20, 47, 90] {
                        #expect(confidence[number - 1] >= ChannelFitSlicer.typicalConfidence / 2)
                    }
                    // Noise (the samples after the reply), with any tentative bits.
                    for start in stride(from: 450, to: 700, by: 5) {
                        let noise = slicer.slice(raw: raw.baseAddress! + 2 * start, magnitudes: values.baseAddress! + start,
                                                 phase: phase, tentative: bits, canceller: canceller)
                        #expect(noise == nil, "noise at \(start) decided as \(noise?.hex ?? "")")
                    }
                }
            }
        }
    }
}
