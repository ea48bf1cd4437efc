import IQ
import TestSupport
import Testing

@testable import ModeSDemod

/// The candidate gates' two tests (`GateLimits`): what they pass and refuse, and that the
/// eight-at-once form agrees with the one-start form.
@Suite(.computeBound) struct CandidateGateTests {
    /// Magnitudes of a reply with `bits` starting `offset` samples (0..<1) after sample 8,
    /// pulses `amplitude` above a noiseless `floor`: each sample holds the share of its
    /// interval that a pulse covers. Padded so a gate can read past the end.
    static func reply(bits: [Int], offset: Double, rate: SampleRate, amplitude: Double, floor: Double) -> [UInt16] {
        var chips = [Bool](repeating: false, count: 16)
        for chip in [0, 2, 7, 9] { chips[chip] = true }
        for bit in bits { chips += bit == 1 ? [true, false] : [false, true] }
        let samplesPerChip = Double(rate.hertz) / 2_000_000
        let count = 8 + Int((Double(chips.count) * samplesPerChip).rounded(.up)) + 32
        return (0..<count).map { sample in
            // The interval [sample, sample + 1) against each chip's interval.
            var covered = 0.0
            for (index, on) in chips.enumerated() where on {
                let start = 8 + offset + Double(index) * samplesPerChip
                covered += max(0, min(Double(sample + 1), start + samplesPerChip) - max(Double(sample), start))
            }
            return UInt16(floor + amplitude * covered)
        }
    }

    static func passes(_ rate: SampleRate, _ samples: [UInt16], at start: Int, _ limits: GateLimits) -> Bool {
        samples.withUnsafeBufferPointer { buffer in
            switch rate {
            case .twoPointFourMega: Gate2400.passes(buffer.baseAddress! + start, limits)
            case .twoMega: Gate2000.passes(buffer.baseAddress! + start, limits)
            }
        }
    }

    static func passingOfEight(_ rate: SampleRate, _ samples: [UInt16], at start: Int, _ limits: GateLimits) -> UInt8 {
        samples.withUnsafeBufferPointer { buffer in
            switch rate {
            case .twoPointFourMega: Gate2400.passingOfEight(buffer.baseAddress! + start, limits)
            case .twoMega: Gate2000.passingOfEight(buffer.baseAddress! + start, limits)
            }
        }
    }

    /// A clean preamble at any sub-sample offset passes at the sample before it starts,
    /// with the quiet test as the demodulator uses it.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func aCleanPreamblePassesAtEveryOffset(rate: SampleRate) {
        let floor: UInt32 = 1500
        let limits = GateLimits(
            floor: floor, contrastSixteenths: 18,
            quietSixteenths: StreamingDemodulator.Options().gateQuietSixteenths)
        for tenth in 0..<10 {
            let samples = Self.reply(
                bits: Array(repeating: 1, count: 8), offset: Double(tenth) / 10, rate: rate,
                amplitude: 3 * Double(floor), floor: Double(floor))
            #expect(Self.passes(rate, samples, at: 8, limits), "offset \(tenth)/10")
        }
    }

    /// The samples each gate reads as pulses and as quiet, relative to a start.
    static func layout(_ rate: SampleRate) -> (pulses: [Int], quiet: [Int]) {
        switch rate {
        case .twoPointFourMega: ([0, 1, 3, 9, 11, 12], [5, 6, 7, 14, 15, 16])
        case .twoMega: ([0, 1, 2, 3, 7, 8, 9, 10], [4, 5, 6, 11, 12, 13])
        }
    }

    /// A window whose quiet samples stand above the floor by more than five eighths of what
    /// its pulses stand above it is refused however strong its contrast, and one at or below
    /// that passes: the windows inside another reply's data that the preamble detector
    /// would refuse anyway, for their filled quiet chips.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func filledQuietSamplesAreRefused(rate: SampleRate) {
        let floor: UInt32 = 1500
        let plain = GateLimits(floor: floor, contrastSixteenths: 18, quietSixteenths: nil)
        let quiet = GateLimits(
            floor: floor, contrastSixteenths: 18,
            quietSixteenths: StreamingDemodulator.Options().gateQuietSixteenths)
        let (pulses, calm) = Self.layout(rate)
        // Strong enough that the contrast passes even with every quiet sample at 15/16.
        let above = 20 * Double(floor)
        for sixteenths in 0...15 {
            var samples = [UInt16](repeating: UInt16(floor), count: 64)
            for index in pulses { samples[index] = UInt16(Double(floor) + above) }
            for index in calm { samples[index] = UInt16(Double(floor) + above * Double(sixteenths) / 16) }
            #expect(Self.passes(rate, samples, at: 0, plain), "\(sixteenths)/16")
            #expect(Self.passes(rate, samples, at: 0, quiet) == (sixteenths <= 10), "\(sixteenths)/16")
        }
    }

    /// The quiet test in integers is the test on the means it stands for.
    @Test func theIntegerQuietTestIsTheTestOnTheMeans() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let floor = UInt32.random(in: 1...20_000, using: &generator)
            let sixteenths = Int32.random(in: 0...15, using: &generator)
            let pulses = Int32.random(in: 0...(4 * 65535), using: &generator)
            let quiet = Int32.random(in: 0...(6 * 65535), using: &generator)
            let limits = GateLimits(floor: floor, contrastSixteenths: 0, quietSixteenths: sixteenths)
            // Exact in rationals: 16 · (quiet / 6 − floor) ≤ L · (pulses / 4 − floor), times 12.
            let left = 32 * Int64(quiet) - 192 * Int64(floor)
            let right = 3 * Int64(sixteenths) * Int64(pulses) - 12 * Int64(sixteenths) * Int64(floor)
            let calm = left <= right
            // Contrast 0 with threshold −1 isolates the quiet test where the contrast is 0 or more.
            let isolated = limits.with(threshold: Int32.min)
            #expect(isolated.admits(pulses: pulses, quiet: quiet) == calm)
            // No limit: the quiet test always passes.
            let open = GateLimits(floor: floor, contrastSixteenths: 0, quietSixteenths: nil).with(threshold: Int32.min)
            #expect(open.admits(pulses: pulses, quiet: quiet))
        }
    }

    /// `passingOfEight` sets exactly the bits of the eight starts that `passes`, on random
    /// magnitudes and on a reply, with and without the quiet test.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func eightAtOnceAgreesWithOneByOne(rate: SampleRate) {
        var generator = SystemRandomNumberGenerator()
        let floor: UInt32 = 1500
        let bits = (0..<56).map { _ in Int.random(in: 0...1, using: &generator) }
        let reply = Self.reply(bits: bits, offset: 0.6, rate: rate, amplitude: 2 * Double(floor), floor: Double(floor))
        let noise = (0..<400).map { _ in UInt16.random(in: 0...UInt16(3 * floor), using: &generator) }
        for samples in [reply, noise] {
            for quiet in [nil, 10, 4] as [Int32?] {
                let limits = GateLimits(floor: floor, contrastSixteenths: 18, quietSixteenths: quiet)
                for start in 0..<(samples.count - 40) {
                    let each = (0..<8).reduce(UInt8(0)) { mask, lane in
                        Self.passes(rate, samples, at: start + lane, limits) ? mask | 1 << lane : mask
                    }
                    #expect(Self.passingOfEight(rate, samples, at: start, limits) == each, "start \(start)")
                }
            }
        }
    }
}
