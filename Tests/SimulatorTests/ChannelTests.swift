import ModeS
import Testing

@testable import Simulator

/// Each impairment of the realistic channel does what it says, measured on its output.
@Suite struct ChannelTests {
    static let message = ModeSBits(hex: "8D406B902015A678D4D220AA4BDA")!

    /// Complex white Gaussian noise of `sigma` per component, `count` samples.
    static func noise(count: Int, sigma: Double = 4, seed: UInt64 = 3) -> [Double] {
        var g = SeededGenerator(seed: seed)
        var iq = [Double](repeating: 0, count: 2 * count)
        for index in 0..<count {
            let (i, q) = g.gaussianPair()
            iq[2 * index] = i * sigma
            iq[2 * index + 1] = q * sigma
        }
        return iq
    }

    static func apply<Stage: ChannelStage>(_ stage: inout Stage, _ iq: inout [Double], block: Int = 1000) {
        let count = iq.count / 2
        iq.withUnsafeMutableBufferPointer { all in
            for start in stride(from: 0, to: count, by: block) {
                let end = min(count, start + block)
                stage.apply(UnsafeMutableBufferPointer(rebasing: all[(2 * start)..<(2 * end)]), firstSample: start)
            }
        }
    }

    /// The noise-free samples of `bursts` at 2.4 MS/s.
    /// (The render with the bursts minus the same noise rendered alone.)
    static func clean(_ bursts: [Transmission], samples: Int) -> [Double] {
        var with: [Double] = []
        var without: [Double] = []
        var a = SeededGenerator(seed: 1)
        var b = SeededGenerator(seed: 1)
        let modulator = Modulator(sampleRate: 2_400_000)
        modulator.render(bursts, totalSamples: samples, noise: &a) { with += $0 }
        modulator.render([], totalSamples: samples, noise: &b) { without += $0 }
        return zip(with, without).map { $0 - $1 }
    }

    @Test func multipathAddsTheCopyAtItsDelayAndStrength() {
        // 1.25 µs is exactly 3 samples at 2.4 MS/s: the echo is the direct burst moved by 3
        // samples, half as strong, its carrier turned by the echo's phase.
        var direct = Transmission(
            time: 50e-6, aircraft: 0, bits: Self.message, snrDb: 20,
            frequencyOffsetHz: 0, phase: 0.3)
        let plain = Self.clean([direct], samples: 600)
        direct.echo = Echo(delay: 1.25e-6, gain: 0.5, phase: 1.1)
        let echoed = Self.clean([direct], samples: 600)
        let (s, c) = DeterministicMath.sinCos(1.1)
        var largest = 0.0
        for n in 3..<600 {
            let i = plain[2 * (n - 3)]
            let q = plain[2 * (n - 3) + 1]
            let expectedI = 0.5 * (i * c - q * s)
            let expectedQ = 0.5 * (q * c + i * s)
            let di = echoed[2 * n] - plain[2 * n]
            let dq = echoed[2 * n + 1] - plain[2 * n + 1]
            #expect(abs(di - expectedI) < 1e-6 && abs(dq - expectedQ) < 1e-6, "sample \(n)")
            largest = max(largest, (di * di + dq * dq).squareRoot())
        }
        #expect(largest > 10)
    }

    @Test func multipathDrawsDelaysAndLossesInRange() {
        var g = SeededGenerator(seed: 5)
        let model = Multipath(fraction: 0.5)
        var echoes: [Echo] = []
        for _ in 0..<2000 { if let delay = model.delay(&g) { echoes.append(model.echo(delay: delay, &g)) } }
        #expect(echoes.count > 900 && echoes.count < 1100)
        #expect(echoes.allSatisfy { $0.delay >= 0.1e-6 && $0.delay <= 2e-6 })
        let lossesDb = echoes.map { -20 * DeterministicMath.log10($0.gain) }
        let range = model.attenuationDb
        #expect(lossesDb.allSatisfy { $0 >= range.lowerBound - 1e-9 && $0 <= range.upperBound + 1e-9 })
        #expect(lossesDb.min()! < range.lowerBound + 1 && lossesDb.max()! > range.upperBound - 1)
    }

    @Test func clippingReachesTheRailsAndNeverPassesThem() {
        var iq = Self.noise(count: 10_000, sigma: 60)
        var clipping = Clipping(rail: 100)
        Self.apply(&clipping, &iq)
        #expect(iq.allSatisfy { abs($0) <= 100 })
        let atRails = iq.filter { abs($0) == 100 }.count
        #expect(atRails > 0)
        #expect(clipping.clipped == atRails)
    }

    @Test func iqImbalanceShowsInTheBranchesGainAndCorrelation() {
        var iq = Self.noise(count: 200_000)
        var imbalance = IQImbalance(gainDb: 1.0, phaseDeg: 5)
        Self.apply(&imbalance, &iq)
        var ii = 0.0
        var qq = 0.0
        var iqSum = 0.0
        for n in 0..<(iq.count / 2) {
            ii += iq[2 * n] * iq[2 * n]
            qq += iq[2 * n + 1] * iq[2 * n + 1]
            iqSum += iq[2 * n] * iq[2 * n + 1]
        }
        let gainDb = 10 * DeterministicMath.log10(qq / ii)
        let correlation = iqSum / (ii * qq).squareRoot()
        #expect(abs(gainDb - 1.0) < 0.05)
        #expect(abs(correlation - DeterministicMath.sin(DeterministicMath.radians(5))) < 0.01)
    }

    @Test func dcOffsetMovesTheMeans() {
        var iq = Self.noise(count: 100_000)
        var offset = DCOffset(i: 1.5, q: -2)
        Self.apply(&offset, &iq)
        let count = Double(iq.count / 2)
        let meanI = stride(from: 0, to: iq.count, by: 2).reduce(0.0) { $0 + iq[$1] } / count
        let meanQ = stride(from: 1, to: iq.count, by: 2).reduce(0.0) { $0 + iq[$1] } / count
        #expect(abs(meanI - 1.5) < 0.05 && abs(meanQ + 2) < 0.05)
    }

    /// The response of `filter` to a step from 0 to 1 on I.
    static func stepResponse(_ filter: ReceiverFilter, samples: Int = 200) -> [Double] {
        var stage = filter
        var iq = [Double](repeating: 0, count: 2 * samples)
        for n in 10..<samples { iq[2 * n] = 1 }
        Self.apply(&stage, &iq, block: 7)
        return stride(from: 0, to: iq.count, by: 2).map { iq[$0] }
    }

    @Test func filterRingsWhenLightlyDampedAndKeepsTheLevel() {
        let ringing = Self.stepResponse(ReceiverFilter(bandwidth: 0.4, damping: 0.45))
        let damped = Self.stepResponse(ReceiverFilter(bandwidth: 0.4, damping: 1.0))
        // Unity gain at DC: both settle on the step's level.
        #expect(abs(ringing.last! - 1) < 1e-6 && abs(damped.last! - 1) < 1e-6)
        // A damping of 0.45 overshoots by about a fifth; critical damping does not.
        #expect(ringing.max()! > 1.1)
        #expect(damped.max()! < 1.001)
        // Nothing before the step.
        #expect(ringing[0..<10].allSatisfy { $0 == 0 })
    }

    @Test func oscillatorTurnsTheSignalAtTheTuningError() {
        let rate = 2_400_000.0
        var oscillator = LocalOscillator(
            offsetHz: 25_000, phaseNoise: 0, sampleRate: rate,
            generator: SeededGenerator(seed: 1))
        var iq = [Double](repeating: 0, count: 2 * 4800)
        for n in 0..<4800 { iq[2 * n] = 1 }
        Self.apply(&oscillator, &iq, block: 333)
        // Unwrapped phase after 4800 samples: −2π · 25 kHz · 2 ms = −100π, i.e. −50 turns.
        var total = 0.0
        for n in 1..<4800 {
            let (i0, q0, i1, q1) = (iq[2 * n - 2], iq[2 * n - 1], iq[2 * n], iq[2 * n + 1])
            let re = i1 * i0 + q1 * q0
            let im = q1 * i0 - i1 * q0
            total += im / (re * re + im * im).squareRoot()  // sine of a small step: the step itself
        }
        let expected = -2 * DeterministicMath.pi * 25_000 / rate * 4799
        #expect(abs(total - expected) / abs(expected) < 1e-3)
    }

    @Test func phaseNoiseWandersAsARandomWalk() {
        var oscillator = LocalOscillator(
            offsetHz: 0, phaseNoise: 0.01, sampleRate: 2_400_000,
            generator: SeededGenerator(seed: 2))
        var iq = [Double](repeating: 0, count: 2 * 40_000)
        for n in 0..<40_000 { iq[2 * n] = 1 }
        Self.apply(&oscillator, &iq)
        // Steps of 0.01 rad rms: after 10,000 samples the phase has moved about 1 rad (rms).
        var squares = 0.0
        for n in stride(from: 0, to: 30_000, by: 1000) {
            let a = (iq[2 * n], iq[2 * n + 1])
            let b = (iq[2 * (n + 10_000)], iq[2 * (n + 10_000) + 1])
            let re = b.0 * a.0 + b.1 * a.1
            squares += 2 - 2 * re  // |b − a|² = 2 − 2 cos θ, about θ² for small angles
        }
        let rms = (squares / 30).squareRoot()
        #expect(rms > 0.4 && rms < 2)
        // The magnitude stays 1: phase noise only turns the signal.
        var worst = 0.0
        for n in 0..<40_000 {
            let i = iq[2 * n]
            let q = iq[2 * n + 1]
            worst = max(worst, abs(i * i + q * q - 1))
        }
        #expect(worst < 1e-6)
    }

    @Test func gainStepsScaleEverythingWithinTheirRange() {
        let rate = 2_400_000.0
        var steps = GainSteps(rangeDb: 2, meanIntervalS: 0.01, sampleRate: rate, generator: SeededGenerator(seed: 4))
        var iq = [Double](repeating: 1, count: 2 * 240_000)
        Self.apply(&steps, &iq, block: 4096)
        let gains = Set(stride(from: 0, to: iq.count, by: 2).map { iq[$0] })
        // About 10 steps in 0.1 s, each a gain within ±2 dB.
        #expect(gains.count >= 4 && gains.count <= 30)
        #expect(gains.allSatisfy { abs(20 * DeterministicMath.log10($0)) <= 2 + 1e-9 })
    }

    @Test func modeACRepliesHaveTheirFramingAndCodePulses() {
        // Squawk 7000: A4 only among the code pulses (position 6, 6 × 1.45 µs).
        let code = ModeACReply.code(squawk: "7000", altitudeFt: nil)
        let reply = ModeACReply(time: 0, code: code, snrDb: 10, frequencyOffsetHz: 0, phase: 0)
        #expect(reply.pulseStarts.count == 2 + 3)
        #expect(reply.pulseStarts.first == 0 && reply.pulseStarts.last == 20.3)
        #expect(!reply.pulseStarts.contains(7 * 1.45))  // the X position stays empty
    }

    @Test func realisticSkyCarriesStationsTrainsAndModeAC() throws {
        var settings = Simulation.Settings()
        settings.duration = 5
        settings.seed = 11
        settings.busy = true
        settings.aircraft = 60
        settings.channel = .realistic
        settings.channel.trains = InterrogationTrains(fraction: 0.2, trainsPerSecond: 2)
        let simulation = try Simulation(settings: settings)
        let codes = Set(
            simulation.transmissions.compactMap { t -> UInt32? in
                t.bits.downlinkFormat == 11 ? CRC.syndrome(of: t.bits) & 0x7F : nil
            })
        #expect(codes.subtracting([0]).count >= 4, "codes \(codes)")
        // Trains: consecutive long replies of one aircraft 136.5 µs apart.
        var trainGaps = 0
        var last: [Int: Double] = [:]
        for t in simulation.transmissions where t.bits.downlinkFormat == 20 || t.bits.downlinkFormat == 21 {
            if let previous = last[t.aircraft], abs(t.time - previous - 136.5e-6) < 1e-9 { trainGaps += 1 }
            last[t.aircraft] = t.time
        }
        #expect(trainGaps > 10)
        // Poisson replies at the channel's rate from every aircraft over the whole recording.
        let expected = Channel.realistic.modeAC!.ratePerAircraft * 60 * 5
        #expect(Double(simulation.modeACReplies.count) > 0.9 * expected)
        #expect(Double(simulation.modeACReplies.count) < 1.1 * expected)
        #expect(simulation.transmissions.filter { $0.echo != nil }.count > 0)
        // The kind channel has none of it.
        settings.channel = .kind
        let kind = try Simulation(settings: settings)
        #expect(kind.modeACReplies.isEmpty && kind.transmissions.allSatisfy { $0.echo == nil })
    }
}
