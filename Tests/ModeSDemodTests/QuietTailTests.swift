import Foundation
import IQ
import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// Starts whose bits fall quiet 27 µs in, as a Mode A/C reply's do, are not sliced
/// (`AcceptancePolicy.tailTooQuiet`), nor those whose first 19 bits are quiet, a reply
/// starting later (`AcceptancePolicy.headTooQuiet`); a reply's own start never is.
@Suite(.computeBound) struct QuietTailTests {
    /// A Mode A/C reply whose every code position (but the empty X) carries a pulse: the
    /// framing pulses 20.3 µs apart and 11 code pulses on the 1.45 µs grid between them, in µs.
    static let modeACPulses = [0.0, 20.3] + (1...13).filter { $0 != 7 }.map { Double($0) * 1.45 }

    /// Magnitudes `floor` plus `amplitude` times the share of each sample covered by a
    /// 0.45 µs pulse starting at each of `pulses` (µs after sample `start`).
    static func modeAC(
        _ pulses: [Double], start: Double, rate: SampleRate, amplitude: Double, floor: Double,
        count: Int
    ) -> [UInt16] {
        let perMicrosecond = Double(rate.hertz) / 1e6
        return (0..<count).map { sample in
            var covered = 0.0
            for pulse in pulses {
                let first = start + pulse * perMicrosecond
                covered += max(0, min(Double(sample + 1), first + 0.45 * perMicrosecond) - max(Double(sample), first))
            }
            return UInt16(min(65535, floor + amplitude * covered))
        }
    }

    /// Whether either rule refuses the start `start` of `samples`, at the preamble detector's
    /// best phase there (nil when the detector finds no phase at all: such a start is never
    /// examined further).
    static func tooQuiet(_ samples: [UInt16], at start: Int, floor: UInt32, rate: SampleRate) -> Bool? {
        let kernels = ReplyKernels(sampleRate: rate)
        let detector = PreambleDetector(kernels: kernels)
        let slicer = BitSlicer(kernels: kernels)
        return samples.withUnsafeBufferPointer { buffer in
            let at = buffer.baseAddress! + start
            let phases = detector.phases(at: at, floor: floor)
            guard phases.count > 0 else { return nil }
            let phase = phases.index(0)
            let amplitude = detector.pulseAmplitude(at: at, phase: phase)
            func loudBits(_ bits: Range<Int>) -> (Double, Int) -> Int {
                { slicer.loudBits(at, phase: phase, limit: $0, bits: bits, enough: $1) }
            }
            return AcceptancePolicy.tailTooQuiet(
                loudBits: loudBits(AcceptancePolicy.tailBits), amplitude: amplitude,
                floor: floor)
                || AcceptancePolicy.headTooQuiet(
                    loudBits: loudBits(AcceptancePolicy.headBits), amplitude: amplitude,
                    floor: floor)
        }
    }

    @Test func theLimitIsTwiceTheFloorOrHalfwayToAWeakStartsPulses() {
        #expect(AcceptancePolicy.tailLimit(amplitude: 5000, floor: 200) == 400)
        #expect(AcceptancePolicy.tailLimit(amplitude: 300, floor: 200) == 250)
        // A start below the floor (an overstated floor) counts any chip above it.
        #expect(AcceptancePolicy.tailLimit(amplitude: 100, floor: 200) == 200)
    }

    @Test func fewerThanAThirdOfTheBitsLoudIsTooQuiet() {
        var asked: [(Double, Int)] = []
        #expect(
            AcceptancePolicy.tailTooQuiet(
                loudBits: {
                    asked.append(($0, $1))
                    return 11
                }, amplitude: 5000, floor: 200))
        #expect(!AcceptancePolicy.tailTooQuiet(loudBits: { _, _ in 12 }, amplitude: 5000, floor: 200))
        // The count may stop as soon as it has enough.
        #expect(asked.count == 1 && asked[0].0 == 400 && asked[0].1 == AcceptancePolicy.minimumLoudTailBits)
    }

    @Test func fewerThanFourOfTheFirstNineteenBitsLoudIsTooQuiet() {
        var asked: [(Double, Int)] = []
        #expect(
            AcceptancePolicy.headTooQuiet(
                loudBits: {
                    asked.append(($0, $1))
                    return 3
                }, amplitude: 5000, floor: 200))
        #expect(!AcceptancePolicy.headTooQuiet(loudBits: { _, _ in 4 }, amplitude: 5000, floor: 200))
        #expect(asked.count == 1 && asked[0].0 == 400 && asked[0].1 == AcceptancePolicy.minimumLoudHeadBits)
    }

    /// Four pulses where a preamble's would be, and a reply beginning 27 µs after them: the
    /// pulses' start passes the tail's test (the reply fills those bits) but not the head's.
    static func pulsesBeforeReply(offset: Double, rate: SampleRate, floor: UInt32) -> (
        samples: [UInt16], replyStart: Int
    ) {
        let amplitude = 20 * Double(floor)
        let allCallReply = allCall(address: 0x3C6DD0, code: 0)
        let reply = CandidateGateTests.reply(
            bits: (1...56).map { Int(allCallReply.bit($0)) }, offset: offset,
            rate: rate, amplitude: amplitude, floor: 0)
        let shift = Int((27e-6 * Double(rate.hertz)).rounded())
        var samples = modeAC(
            [0, 1, 3.5, 4.5], start: 8 + offset, rate: rate, amplitude: amplitude,
            floor: Double(floor), count: shift + reply.count)
        for (index, value) in reply.enumerated() { samples[shift + index] += value }
        return (samples, shift + 8)
    }

    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func pulsesBeforeAReplyAreTooQuietAndTheReplyIsNot(rate: SampleRate) {
        let floor: UInt32 = 200
        for tenth in 0..<10 {
            let (samples, replyStart) = Self.pulsesBeforeReply(offset: Double(tenth) / 10, rate: rate, floor: floor)
            #expect(Self.tooQuiet(samples, at: 8, floor: floor, rate: rate) == true, "offset \(tenth)/10")
            let reply =
                Self.tooQuiet(samples, at: replyStart, floor: floor, rate: rate)
                ?? Self.tooQuiet(samples, at: replyStart + 1, floor: floor, rate: rate)
            #expect(reply == false, "offset \(tenth)/10")
        }
    }

    /// In a stream, pulses like a preamble's 27 µs before each of ten squitters are counted
    /// as quiet starts and not sliced, and every squitter is found.
    @Test func pulsesBeforeRepliesInAStreamAreNotSliced() {
        let rate = SampleRate.twoPointFourMega
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 14_000, seed: 11)
        let squitters = (0..<10).map {
            RectangularSignal.extendedSquitter(
                address: 0x4CA200 + UInt32($0), payload: 0x58_0000_0000_0000 + UInt64($0))
        }
        let lead = 27e-6 * Double(rate.hertz)
        let bursts = squitters.enumerated().map { index, bits in
            RectangularSignal.Burst(
                bits: bits, start: 1_000 + 1_200 * Double(index) + lead + Double(index) / 10,
                amplitude: 40)
        }
        var iq = signal.samples(bursts)
        for (index, burst) in bursts.enumerated() {
            let pulses = Self.modeAC(
                [0, 1, 3.5, 4.5], start: burst.start - lead, rate: rate, amplitude: 40, floor: 0,
                count: Int(burst.start))
            Self.add(pulses, carrierPhase: Double(index) * 0.9, to: &iq)
        }
        let (frames, statistics) = Self.demodulate(iq, rate: rate)
        #expect(frames == squitters)
        #expect(statistics.quietHeadStarts >= 10)
    }

    /// Every start inside a strong Mode A/C reply that the preamble detector takes is too
    /// quiet, at every sub-sample offset.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func aModeACReplyIsTooQuietFromEveryStart(rate: SampleRate) {
        let floor: UInt32 = 200
        var examined = 0
        for tenth in 0..<10 {
            let samples = Self.modeAC(
                Self.modeACPulses, start: 40 + Double(tenth) / 10, rate: rate,
                amplitude: 30 * Double(floor), floor: Double(floor), count: 400)
            for start in 0..<100 {
                guard let quiet = Self.tooQuiet(samples, at: start, floor: floor, rate: rate) else { continue }
                examined += 1
                #expect(quiet, "offset \(tenth)/10, start \(start)")
            }
        }
        #expect(examined > 0)
    }

    /// A reply is never too quiet at its own start: strong, near the floor, or beneath pulses
    /// ten times as strong on its preamble, which set the start's measured amplitude.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func aReplyIsNeverTooQuiet(rate: SampleRate) {
        let floor: UInt32 = 200
        for tenth in 0..<10 {
            let allCallReply = allCall(address: 0x3C6DD0 + UInt32(tenth) * 0x1111, code: 0)
            let bits = (1...56).map { Int(allCallReply.bit($0)) }
            for amplitude in [20.0, 3, 2] {
                // The reply starts at sample 8 + tenth/10 (see `CandidateGateTests.reply`).
                let reply = CandidateGateTests.reply(
                    bits: bits, offset: Double(tenth) / 10, rate: rate,
                    amplitude: amplitude * Double(floor), floor: Double(floor))
                // Half a sample or more late, the detector may take the next sample as the start.
                let verdict =
                    Self.tooQuiet(reply, at: 8, floor: floor, rate: rate)
                    ?? Self.tooQuiet(reply, at: 9, floor: floor, rate: rate)
                // Twice the floor above it and half a sample off at 2.0 MS/s, the detector
                // takes neither start: such a reply is never examined at all.
                if amplitude < 3, verdict == nil { continue }
                #expect(verdict == false, "offset \(tenth)/10, amplitude \(amplitude)")
            }
            let reply = CandidateGateTests.reply(
                bits: bits, offset: Double(tenth) / 10, rate: rate,
                amplitude: 3 * Double(floor), floor: 0)
            // Pulses ten times as strong right on the reply's preamble pulses, as another
            // signal's can fall: the start's measured amplitude is theirs, not the reply's.
            let strong = Self.modeAC(
                [0, 1, 3.5, 4.5], start: 8 + Double(tenth) / 10, rate: rate,
                amplitude: 30 * Double(floor), floor: Double(floor), count: reply.count)
            let both = zip(reply, strong).map { $0 + $1 }
            #expect(Self.tooQuiet(both, at: 8, floor: floor, rate: rate) == false, "offset \(tenth)/10 beneath pulses")
        }
    }

    /// A stream with a DF17 and `modeACReplies` Mode A/C replies as strong, 1,000 samples
    /// apart, each on a carrier of its own phase: the frames found and the demodulator's
    /// counts.
    static func stream(modeACReplies: Int, rate: SampleRate) -> (
        frames: [ModeSBits], squitter: ModeSBits,
        statistics: DemodulatorStatistics
    ) {
        let signal = RectangularSignal(sampleRate: rate, sampleCount: 40_000, seed: 5)
        let squitter = RectangularSignal.extendedSquitter(address: 0x4CA123, payload: 0x58_1234_5678_9ABC)
        var iq = signal.samples([.init(bits: squitter, start: 30_000.3, amplitude: 40)])
        let perMicrosecond = Double(rate.hertz) / 1e6
        for reply in 0..<modeACReplies {
            let start = 2_000 + Double(reply) * 1_000 + Double(reply % 10) / 10
            let pulses = modeAC(
                modeACPulses, start: start, rate: rate, amplitude: 40, floor: 0,
                count: Int(start + 30 * perMicrosecond))
            add(pulses, carrierPhase: Double(reply) * 0.7, to: &iq)
        }
        let (frames, statistics) = demodulate(iq, rate: rate)
        return (frames, squitter, statistics)
    }

    /// Adds the magnitudes `pulses` to the complex samples `iq` (I, Q interleaved, cu8 LSB
    /// around zero) on a carrier of phase `carrierPhase`.
    static func add(_ pulses: [UInt16], carrierPhase: Double, to iq: inout [Double]) {
        for (sample, value) in pulses.enumerated() where value > 0 {
            iq[2 * sample] += Double(value) * cos(carrierPhase)
            iq[2 * sample + 1] += Double(value) * sin(carrierPhase)
        }
    }

    /// The frames a demodulator finds in the complex samples `iq` as cu8, and its counts.
    static func demodulate(_ iq: [Double], rate: SampleRate) -> (frames: [ModeSBits], statistics: DemodulatorStatistics)
    {
        let run = ModeSDemodTests.demodulate(RectangularSignal.encode(iq, format: .cu8), format: .cu8, rate: rate)
        return (run.frames.map(\.bits), run.statistics)
    }

    /// In a stream, Mode A/C replies are counted as quiet starts and hardly ever sliced
    /// (without the rule, twenty of them took over 700 slicing attempts at either rate; with
    /// it, 13 at 2.4 MS/s: fewer than one each), and a DF17 among them is still found.
    @Test(arguments: [SampleRate.twoPointFourMega, .twoMega])
    func modeACRepliesInAStreamAreNotSliced(rate: SampleRate) {
        let alone = Self.stream(modeACReplies: 0, rate: rate)
        let among = Self.stream(modeACReplies: 20, rate: rate)
        #expect(alone.frames == [alone.squitter])
        #expect(among.frames == [among.squitter])
        #expect(among.statistics.quietTailStarts >= alone.statistics.quietTailStarts + 20)
        #expect(among.statistics.attempts <= alone.statistics.attempts + 20)
    }
}
