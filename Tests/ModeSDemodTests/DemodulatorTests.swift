import Foundation
import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct DemodulatorTests {
    /// A recording with DF17 replies at several phases and a few spacings, at `rate`.
    func recording(rate: SampleRate, count: Int = 10, amplitude: Double = 40) -> (
        RectangularSignal, [RectangularSignal.Burst]
    ) {
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 6000 + count * 700, seed: 7)
        var bursts = [RectangularSignal.Burst]()
        for index in 0..<count {
            let bits = RectangularSignal.extendedSquitter(
                address: 0x400000 + UInt32(index), payload: UInt64(index) * 0x1234_5678_9ABC)
            // Phases in 0.1-sample steps. At 2.0 MS/s a reply about half a sample off is
            // ambiguous with ideal rectangular pulses (each sample holds half of two chips:
            // a known limit of that rate), so phases 0.4-0.6 are left out there.
            var phase = Double(index % 10) / 10
            if rate == .twoMega, (4...6).contains(index % 10) { phase = index % 10 == 4 ? 0.3 : 0.7 }
            let start = 5000 + Double(index) * 700 + phase
            bursts.append(.init(bits: bits, start: start, amplitude: amplitude))
        }
        return (signal, bursts)
    }

    @Test(arguments: SampleRate.allCases, SampleFormat.allCases)
    func everyCleanReplyIsFoundInEveryFormat(rate: SampleRate, format: SampleFormat) {
        let (signal, bursts) = recording(rate: rate)
        let (frames, leftover, _) = demodulate(signal.bytes(bursts, format: format), format: format, rate: rate)
        #expect(leftover == 0)
        #expect(frames.map(\.bits) == bursts.map(\.bits))
        for (frame, burst) in zip(frames, bursts) {
            // 12 MHz ticks: 5 per sample at 2.4 MS/s, 6 at 2.0 MS/s; within half a sample
            // (one sample at 2.0 MS/s, where only four phases are tried).
            let ticks = burst.start * 12e6 / Double(rate.hertz)
            let samples = rate == .twoMega ? 1.0 : 0.5
            #expect(abs(Double(frame.timestamp) - ticks) <= 12e6 / Double(rate.hertz) * samples + 0.5)
            // Pulses of 40 LSB of 127.5 full scale are about -10 dBFS; the level is the mean
            // power over the data block, where Manchester coding leaves half the chips empty:
            // 3 dB lower, and a dB or two more where samples straddle chip edges (most of
            // them at 2.0 MS/s, when a reply starts between two samples).
            let expected = 20 * Foundation.log10(40 / 127.5) - 3
            let straddling = rate == .twoMega ? 2.5 : 1.5
            #expect(
                frame.signalLevel <= expected + 0.5 && frame.signalLevel >= expected - straddling,
                "\(frame.signalLevel)")
        }
    }

    @Test(arguments: SampleRate.allCases)
    func blockBoundariesNeverChangeTheFrames(rate: SampleRate) {
        let (signal, bursts) = recording(rate: rate)
        let bytes = signal.bytes(bursts, format: .cu8)
        let whole = demodulate(bytes, format: .cu8, rate: rate).frames
        #expect(whole.count == bursts.count)
        var state: UInt64 = 42
        for _ in 0..<4 {
            var sizes = [Int]()
            for _ in 0..<64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Sizes from 1 byte (half a sample) to ~20,000 bytes, odd ones included.
                sizes.append(1 + Int(state >> 33) % (state % 3 == 0 ? 7 : 20_000))
            }
            let pieces = demodulate(bytes, format: .cu8, rate: rate, blockSizes: sizes).frames
            #expect(pieces == whole)
        }
    }

    @Test func pureNoiseGivesNoFrames() {
        for rate in SampleRate.allCases {
            let signal = RectangularSignal(sampleRate: rate, sampleCount: 600_000, seed: 99)
            let frames = demodulate(signal.bytes([], format: .cu8), format: .cu8, rate: rate).frames
            #expect(frames.isEmpty, "\(frames.map(\.bits.hex))")
        }
    }

    @Test func truncatedFinalSampleIsReported() {
        let (signal, bursts) = recording(rate: .twoPointFourMega, count: 2)
        var bytes = signal.bytes(bursts, format: .cs16)
        bytes.append(contentsOf: [1, 2, 3])
        let (frames, leftover, _) = demodulate(bytes, format: .cs16, rate: .twoPointFourMega)
        #expect(leftover == 3)
        #expect(frames.count == 2)
    }

    @Test func overlappingSecondReplyIsRecovered() {
        // A strong reply, then a weaker one starting 40 µs into it: the second is found
        // once the search continues inside the first.
        let rate = SampleRate.twoPointFourMega
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 20_000, seed: 3)
        let first = RectangularSignal.extendedSquitter(address: 0x3C6589, payload: 0x58_B986_D0B3_BD25)
        let second = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let bursts: [RectangularSignal.Burst] = [
            .init(bits: first, start: 5000, amplitude: 60),
            .init(bits: second, start: 5000 + 40e-6 * 2.4e6 + 0.4, amplitude: 20),
            .init(bits: second, start: 12000, amplitude: 20)
        ]
        let frames = demodulate(signal.bytes(bursts, format: .cu8), format: .cu8, rate: rate).frames
        #expect(frames.first?.bits == first)
        #expect(frames.count >= 2)
    }
}

@Suite(.computeBound) struct ReplyCancellationTests {
    /// A strong reply with two replies a third as strong (10 dB weaker, on other carrier
    /// offsets): one starting 60 µs before it, one starting 70 µs into it. Each is half
    /// buried under the strong one's pulses; they do not overlap each other.
    func buriedReplies(format: SampleFormat) -> (
        bytes: [UInt8], strong: ModeSBits, before: ModeSBits, inside: ModeSBits
    ) {
        let rate = SampleRate.twoPointFourMega
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 20_000, seed: 11)
        let strong = RectangularSignal.extendedSquitter(address: 0x3C6589, payload: 0x58_B986_D0B3_BD25)
        let before = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let inside = RectangularSignal.extendedSquitter(address: 0xA1B2C3, payload: 0x99_1234_5678_9ABC)
        let bursts: [RectangularSignal.Burst] = [
            .init(bits: before, start: 8000 - 60e-6 * 2.4e6 + 0.3, amplitude: 25, frequencyOffset: -35_000),
            .init(bits: strong, start: 8000, amplitude: 75, frequencyOffset: 12_000),
            .init(bits: inside, start: 8000 + 70e-6 * 2.4e6 + 0.6, amplitude: 25, frequencyOffset: 41_000)
        ]
        return (signal.bytes(bursts, format: format), strong, before, inside)
    }

    @Test(arguments: SampleFormat.allCases)
    func repliesBuriedUnderAStrongerOneAreRecoveredInTimeOrder(format: SampleFormat) {
        let (bytes, strong, before, inside) = buriedReplies(format: format)
        // Cancellation is on by default.
        let frames = demodulate(bytes, format: format, rate: .twoPointFourMega).frames
        #expect(frames.map(\.bits) == [before, strong, inside])
        #expect(frames.map(\.timestamp) == frames.map(\.timestamp).sorted())
    }

    @Test func withoutCancellationTheBuriedRepliesAreLost() {
        let (bytes, strong, _, _) = buriedReplies(format: .cu8)
        var options = StreamingDemodulator.Options()
        options.cancelOverlaps = false
        let frames = demodulate(bytes, format: .cu8, rate: .twoPointFourMega, options: options).frames
        #expect(frames.map(\.bits) == [strong])
    }

    @Test func aReplyBuriedUnderAClippedOneIsRecovered() {
        // 190 LSB is beyond a cu8 sample's full scale (127.5): the strong reply's pulses are
        // clipped, and subtracting its model there would leave its excess behind.
        let rate = SampleRate.twoPointFourMega
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 20_000, seed: 13)
        let strong = RectangularSignal.extendedSquitter(address: 0x3C6589, payload: 0x58_B986_D0B3_BD25)
        let buried = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let bytes = signal.bytes(
            [
                .init(bits: buried, start: 8000 - 50e-6 * 2.4e6 + 0.4, amplitude: 30, frequencyOffset: 25_000),
                .init(bits: strong, start: 8000, amplitude: 190, frequencyOffset: -8_000)
            ], format: .cu8)
        #expect(demodulate(bytes, format: .cu8, rate: rate).frames.map(\.bits) == [buried, strong])
    }

    @Test func cancellationGivesTheSameFramesWhateverTheBlockSizes() {
        let (bytes, _, _, _) = buriedReplies(format: .cu8)
        let whole = demodulate(bytes, format: .cu8, rate: .twoPointFourMega).frames
        #expect(whole.count == 3)
        for sizes in [[1], [7, 4096, 3], [333, 20_001], [65_537]] {
            let pieces = demodulate(bytes, format: .cu8, rate: .twoPointFourMega, blockSizes: sizes).frames
            #expect(pieces == whole, "block sizes \(sizes)")
        }
    }
}

@Suite(.computeBound) struct SampleFormatAndRateTests {
    @Test func formatsParseByNameAndExtension() {
        #expect(SampleFormat(name: "cu8") == .cu8)
        #expect(SampleFormat(name: "CS16") == .cs16)
        #expect(SampleFormat(name: "sc16") == .cs16)
        #expect(SampleFormat(name: "cf32") == .cf32)
        #expect(SampleFormat(name: "u16") == nil)
        #expect(SampleFormat(fileName: "a/b.rec.sc16") == .cs16)
        #expect(SampleFormat(fileName: "noext") == nil)
        #expect(SampleFormat(fileName: "x.bin") == nil)
    }

    @Test func ratesParseInTheUsualSpellings() {
        for text in ["2.4M", "2.4m", "2400000", "2.4", "2400k", "2.4e6"] {
            #expect(SampleRate(parsing: text) == .twoPointFourMega, "\(text)")
        }
        for text in ["2M", "2.0M", "2000000", "2", "2.0"] {
            #expect(SampleRate(parsing: text) == .twoMega, "\(text)")
        }
        for text in ["", "fast", "3.2M", "-2.4", "2.4MM"] {
            #expect(SampleRate(parsing: text) == nil, "\(text)")
        }
    }

    @Test func magnitudesAgreeAcrossFormats() {
        // Both components at full scale (the loudest a converter gives) is the top of the
        // scale, not beyond it.
        let iq: [(Double, Double)] = [(0, 0), (127.5, 0), (-60, 45), (3, -4), (127.5, -127.5)]
        for (i, q) in iq {
            let expected = (i * i + q * q).squareRoot() / 127.5 * MagnitudeConverter.fullScale
            var results = [Double]()
            for format in SampleFormat.allCases {
                var bytes = [UInt8]()
                switch format {
                case .cu8: bytes = [UInt8((i + 127.5).rounded(.down)), UInt8((q + 127.5).rounded(.down))]
                case .cs16:
                    for v in [i, q] {
                        withUnsafeBytes(of: Int16((v * 256).rounded()).littleEndian) { bytes.append(contentsOf: $0) }
                    }
                case .cf32:
                    for v in [i, q] {
                        withUnsafeBytes(of: Float(v / 127.5).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                    }
                }
                var out: UInt16 = 0
                bytes.withUnsafeBytes {
                    MagnitudeConverter(format: format).convert($0.baseAddress!, count: 1, into: &out)
                }
                results.append(Double(out))
            }
            for value in results { #expect(abs(value - expected) < 0.01 * 65535, "\(i),\(q): \(results)") }
        }
    }

    @Test func decibelsWithoutAMathLibrary() {
        #expect(abs(Decibels.log10(1000) - 3) < 1e-12)
        #expect(abs(Decibels.log10(0.002) - Foundation.log10(0.002)) < 1e-12)
        #expect(Decibels.fromAmplitude(0, fullScale: 1) == -.infinity)
        #expect(abs(Decibels.fromAmplitude(0.5, fullScale: 1) + 6.0206) < 1e-3)
    }
}

@Suite(.computeBound) struct LopsidedPreambleTests {
    /// Magnitudes of a recording with one reply of `amplitude` starting at sample 3000, and
    /// the mean magnitude of its noise (the floor).
    func magnitudes(amplitude: Double) -> (values: [UInt16], floor: UInt32) {
        let signal = RectangularSignal(sampleRate: .twoPointFourMega, sampleCount: 4000, seed: 5)
        let bits = RectangularSignal.extendedSquitter(address: 0x3C6589, payload: 0x58_B986_D0B3_BD25)
        let bytes = signal.bytes([.init(bits: bits, start: 3000, amplitude: amplitude)], format: .cu8)
        var values = [UInt16](repeating: 0, count: 4000)
        bytes.withUnsafeBytes { raw in
            values.withUnsafeMutableBufferPointer {
                MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: 4000, into: $0.baseAddress!)
            }
        }
        let floor = values[0..<2500].reduce(0) { $0 + UInt32($1) } / 2500
        return (values, floor)
    }

    /// The best phase at `start` and whether the preamble there is lopsided.
    func lopsided(_ values: [UInt16], at start: Int, floor: UInt32) -> (passes: Bool, lopsided: Bool) {
        let detector = PreambleDetector(kernels: ReplyKernels(sampleRate: .twoPointFourMega))
        return values.withUnsafeBufferPointer { buffer in
            let samples = buffer.baseAddress! + start
            let phases = detector.phases(at: samples, floor: floor)
            guard phases.count > 0 else { return (false, false) }
            return (true, detector.isLopsided(at: samples, phase: phases.index(0), floor: floor))
        }
    }

    @Test func aWindowHalfOnAStrongPreambleIsLopsided() {
        let (values, floor) = magnitudes(amplitude: 100)
        // 3.5 µs (8.4 samples) early, the window's last two pulses sit on the reply's first
        // two: it scores as a preamble, and only the balance of its pulses gives it away.
        let early = (2989...2993).map { lopsided(values, at: $0, floor: floor) }.filter { $0.passes }
        #expect(!early.isEmpty)
        #expect(early.allSatisfy { $0.lopsided })
        #expect(lopsided(values, at: 3000, floor: floor) == (true, false))
    }

    @Test(arguments: [12.0, 25.0, 60.0])
    func genuinePreamblesAreBalanced(amplitude: Double) {
        let (values, floor) = magnitudes(amplitude: amplitude)
        #expect(lopsided(values, at: 3000, floor: floor) == (true, false))
    }
}

@Suite(.computeBound) struct CoherentRetryTests {
    /// Twenty recordings, each with a reply overlapped by one `ratio` as strong that starts
    /// 20 to 115 µs after it, on other carriers; how many of the stronger and of the
    /// weaker replies come out.
    func recovered(ratio: Double, coherent: Bool, channelFit: Bool = false) -> (stronger: Int, weaker: Int) {
        let rate = SampleRate.twoPointFourMega
        var options = StreamingDemodulator.Options()
        options.coherentRetry = coherent
        options.channelFit = channelFit
        var counts = (stronger: 0, weaker: 0)
        for trial in 0..<20 {
            let signal = RectangularSignal(sampleRate: rate, sampleCount: 12_000, seed: UInt64(100 + trial))
            let strong = RectangularSignal.extendedSquitter(
                address: 0x3C6589 + UInt32(trial),
                payload: 0x58_B986_D0B3_BD25 &* UInt64(trial + 1))
            let weak = RectangularSignal.extendedSquitter(
                address: 0x4840D6 + UInt32(trial),
                payload: 0x20_2CC3_71C3_2CE0 &* UInt64(trial + 3))
            let delay = Double(20 + 5 * trial) * 2.4
            let bytes = signal.bytes(
                [
                    .init(bits: strong, start: 5000.3, amplitude: 60, frequencyOffset: 10_000),
                    .init(
                        bits: weak, start: 5000.3 + delay, amplitude: 60 * ratio,
                        frequencyOffset: -20_000 + Double(trial) * 3000)
                ], format: .cu8)
            let frames = demodulate(bytes, format: .cu8, rate: rate, options: options).frames.map(\.bits)
            if frames.contains(strong) { counts.stronger += 1 }
            if frames.contains(weak) { counts.weaker += 1 }
        }
        return counts
    }

    @Test func theStrongerOfTwoSimilarRepliesIsRecoveredOnItsCarrier() {
        // At 0.7 (3 dB weaker) the other reply's pulses break the magnitude decisions of
        // most of these; projected on the stronger reply's own carrier they do not, and
        // once it is decoded, cancellation recovers the weaker one as well.
        // (The channel fit, off here, rescues many of them too: the other reply's
        // pulses are, for a while, much like an echo; both on are the defaults.)
        let plain = recovered(ratio: 0.7, coherent: false)
        let coherent = recovered(ratio: 0.7, coherent: true)
        let both = recovered(ratio: 0.7, coherent: true, channelFit: true)
        #expect(plain.stronger <= 8)
        #expect(coherent.stronger >= 15)
        #expect(coherent.weaker >= 15)
        #expect(both.stronger >= coherent.stronger && both.weaker >= coherent.weaker)
    }
}

@Suite(.computeBound) struct SequenceSlicerTests {
    /// Magnitudes of one clean reply starting at sample 100 + `offset`, at `rate`.
    func magnitudes(
        _ bits: ModeSBits, rate: SampleRate, offset: Double, amplitude: Double = 60,
        seed: UInt64 = 3
    ) -> [UInt16] {
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 600, seed: seed)
        let bytes = signal.bytes([.init(bits: bits, start: 100 + offset, amplitude: amplitude)], format: .cu8)
        var values = [UInt16](repeating: 0, count: 600)
        bytes.withUnsafeBytes { raw in
            values.withUnsafeMutableBufferPointer {
                MagnitudeConverter(format: .cu8).convert(raw.baseAddress!, count: 600, into: $0.baseAddress!)
            }
        }
        return values
    }

    @Test(arguments: SampleRate.allCases)
    func cleanRepliesComeOutWhole(rate: SampleRate) {
        let kernels = ReplyKernels(sampleRate: rate)
        let slicer = SequenceSlicer(kernels: kernels)
        let long = RectangularSignal.extendedSquitter(address: 0x4840D6, payload: 0x20_2CC3_71C3_2CE0)
        let short = ModeSBits(bytes: [0x5D, 0x48, 0x40, 0xD6, 0x00, 0x00, 0x00])!
        for (phase, offset) in kernels.phaseOffsets.enumerated() {
            for bits in [long, short] {
                let values = magnitudes(bits, rate: rate, offset: Double(offset) / 10)
                // The noise floor: the mean magnitude before the reply.
                let floor = Float(values[0..<90].reduce(0) { $0 + Int($1) }) / 90
                let level = Float(MagnitudeConverter.fullScale * 60 / 127.5) - floor
                let decided = values.withUnsafeBufferPointer {
                    slicer.slice($0.baseAddress! + 100, phase: phase, level: level, floor: floor)
                }
                #expect(decided?.hex == bits.hex, "phase \(offset) tenths, \(bits.bitCount) bits")
            }
        }
        // Noise alone mostly starts with a format no transponder sends.
        let noise = magnitudes(long, rate: rate, offset: 400)
        let formats = (0..<50).filter { start in
            noise.withUnsafeBufferPointer { slicer.slice($0.baseAddress! + start, phase: 0, level: 2000, floor: 1000) }
                != nil
        }
        #expect(formats.count < 35)
    }

    /// A DF11 whose interrogator code no other aircraft answers with is found once its
    /// aircraft is known from a DF17, and only then; switching the rule off loses it.
    @Test func aLoneInterrogatorCodeIsBelievedFromAKnownAircraft() {
        let address: UInt32 = 0x4840D6
        var allCall = ModeSBits(bitCount: 56)
        allCall.setField(1, 5, 11)
        allCall.setField(6, 8, 5)
        allCall.setField(9, 32, UInt64(address))
        allCall = CRC.withParity(allCall, overlay: 0x3C)
        let squitter = RectangularSignal.extendedSquitter(address: address, payload: 0x20_2CC3_71C3_2CE0)
        let signal = RectangularSignal(sampleRate: .twoPointFourMega, sampleCount: 20_000, seed: 5)
        // The code before the squitter (unknown aircraft), then the squitter, then the code again.
        let bursts = [
            RectangularSignal.Burst(bits: allCall, start: 1000.3, amplitude: 60),
            RectangularSignal.Burst(bits: squitter, start: 6000.6, amplitude: 60),
            RectangularSignal.Burst(bits: allCall, start: 12000.2, amplitude: 60)
        ]
        let bytes = signal.bytes(bursts, format: .cu8)
        let found = demodulate(bytes, format: .cu8, rate: .twoPointFourMega).frames.map(\.bits.hex)
        #expect(found == [squitter.hex, allCall.hex])
        var options = StreamingDemodulator.Options()
        options.knownAddressInterrogatorCodes = false
        let without = demodulate(bytes, format: .cu8, rate: .twoPointFourMega, options: options).frames.map(\.bits.hex)
        #expect(without == [squitter.hex])
    }
}
