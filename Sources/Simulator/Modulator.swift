/// Renders transmissions and receiver noise into IQ samples, block by block.
///
/// Noise is complex white Gaussian noise of `noiseSigma` (cu8 LSB units) per component, so
/// the complex noise power is 2·σ² (32 LSB² at the default 4 LSB). A burst of SNR S dB gets
/// the amplitude A for which A² × mean(envelope²) over the burst = 10^(S/10) × 2σ², which is
/// DESIGN's definition (mean power of the noise-free burst over its duration divided by the
/// complex noise power). The carrier is A·e^{i(φ + 2π f t)}: a random phase per message and
/// the aircraft's frequency offset, so the phase rotates across the burst. Overlapping
/// bursts add as complex fields, as they do in a real receiver.
package struct Modulator: Sendable {
    /// Samples per second (2.0 or 2.4 million).
    package let sampleRate: Double
    /// Noise standard deviation per component, cu8 LSB.
    package let noiseSigma: Double
    /// The pulse shape.
    package let shaper: PulseShaper

    /// A modulator at `sampleRate` with noise `noiseSigma` LSB rms per component.
    package init(sampleRate: Double, noiseSigma: Double = 4.0, riseTimeUs: Double = 0.1) {
        self.sampleRate = sampleRate
        self.noiseSigma = noiseSigma
        self.shaper = PulseShaper(sampleRate: sampleRate, riseTimeUs: riseTimeUs)
    }

    /// Complex noise power, LSB².
    package var noisePower: Double { 2 * noiseSigma * noiseSigma }

    /// The carrier amplitude (LSB) that gives `transmission` its SNR.
    package func amplitude(for transmission: Transmission) -> Double {
        let shapePower = shaper.meanPower(transmission.bits, start: transmission.time)
        guard shapePower > 0 else { return 0 }
        let power = DeterministicMath.powerRatio(decibels: transmission.snrDb) * noisePower
        return (power / shapePower).squareRoot()
    }

    /// Renders `totalSamples` samples of noise plus `transmissions` (sorted by time) and hands
    /// them to `consume` in blocks of interleaved I/Q values.
    package func render(
        _ transmissions: [Transmission], totalSamples: Int, noise: inout SeededGenerator,
        blockSize: Int = 1 << 16,
        consume: (UnsafeBufferPointer<Double>) throws -> Void
    ) rethrows {
        var chain = ChannelChain(.kind, sampleRate: sampleRate, generator: noise)
        try render(
            transmissions, interference: [], totalSamples: totalSamples, noise: &noise, channel: &chain,
            blockSize: blockSize, consume: consume)
    }

    /// Renders `transmissions` and the Mode A/C replies `interference` (both sorted by time)
    /// through `channel`: the replies and their echoes, the signal stages, the receiver noise,
    /// then the stages acting on everything received. An empty chain with no interference
    /// renders exactly as the kind channel always did (noise first, then each burst added).
    package func render(
        _ transmissions: [Transmission], interference: [ModeACReply], totalSamples: Int,
        noise: inout SeededGenerator, channel: inout ChannelChain, blockSize: Int = 1 << 16,
        consume: (UnsafeBufferPointer<Double>) throws -> Void
    ) rethrows {
        let kind = channel.isEmpty && interference.isEmpty
        let amplitudes = transmissions.map(amplitude(for:))
        let spans = transmissions.map {
            shaper.sampleSpan(start: $0.time, duration: $0.duration + ($0.echo?.delay ?? 0))
        }
        let modeAC = interference.map { reply in
            (
                amplitude: pulseAmplitude(snrDb: reply.snrDb), starts: reply.pulseStarts,
                span: shaper.sampleSpan(start: reply.time, duration: ModeACReplies.duration)
            )
        }
        var block = [Double](repeating: 0, count: 2 * blockSize)
        var signal = [Double](repeating: 0, count: kind ? 0 : 2 * blockSize)
        var bursts = OnAir(spans: spans, capacity: 64)
        var replies = OnAir(spans: modeAC.map { $0.span }, capacity: 0)
        var blockStart = 0
        while blockStart < totalSamples {
            let count = min(blockSize, totalSamples - blockStart)
            let blockEnd = blockStart + count  // exclusive
            // A local copy of the generator keeps its state in registers in the hot loop.
            var generator = noise
            try block.withUnsafeMutableBufferPointer { out in
                try signal.withUnsafeMutableBufferPointer { clean in
                    addNoise(count: count, &generator, into: out)
                    let target = kind ? out : clean
                    if !kind { for index in 0..<(2 * count) { clean[index] = 0 } }
                    bursts.admit(before: blockEnd)
                    for id in bursts.active {
                        addBurst(
                            transmissions[id], amplitude: amplitudes[id], span: spans[id],
                            blockStart: blockStart, blockEnd: blockEnd, into: target)
                    }
                    bursts.retire(before: blockEnd)
                    replies.admit(before: blockEnd)
                    for id in replies.active {
                        addPulses(
                            interference[id], amplitude: modeAC[id].amplitude, starts: modeAC[id].starts,
                            span: modeAC[id].span, blockStart: blockStart, blockEnd: blockEnd, into: target)
                    }
                    replies.retire(before: blockEnd)
                    if !kind {
                        Self.receive(clean: clean, noise: out, count: count, firstSample: blockStart, through: &channel)
                    }
                    try consume(UnsafeBufferPointer(rebasing: out[0..<(2 * count)]))
                }
            }
            noise = generator
            blockStart = blockEnd
        }
    }

    /// The bursts of a render (sorted by their first sample) on air in the block being
    /// rendered: each is admitted when a block reaches its first sample and retired after
    /// the block that holds its last.
    private struct OnAir {
        /// The bursts' first and last samples.
        let spans: [(first: Int, last: Int)]
        /// The bursts on air, by index, in the order they came.
        private(set) var active: [Int] = []
        /// The first burst not yet admitted.
        private var next = 0

        /// Bursts with `spans`, room reserved for `capacity` on air at once.
        init(spans: [(first: Int, last: Int)], capacity: Int) {
            self.spans = spans
            active.reserveCapacity(capacity)
        }

        /// Admits the bursts that start before `blockEnd`.
        mutating func admit(before blockEnd: Int) {
            while next < spans.count, spans[next].first < blockEnd {
                active.append(next)
                next += 1
            }
        }

        /// Retires the bursts that end before `blockEnd`.
        mutating func retire(before blockEnd: Int) {
            active.removeAll { spans[$0].last < blockEnd }
        }
    }

    /// Fills the first `count` samples of `out` with receiver noise.
    private func addNoise(
        count: Int, _ generator: inout SeededGenerator, into out: UnsafeMutableBufferPointer<Double>
    ) {
        for index in 0..<count {
            let (i, q) = generator.gaussianPair()
            out[2 * index] = i * noiseSigma
            out[2 * index + 1] = q * noiseSigma
        }
    }

    /// Passes one block through `channel`'s stages: the signal stages on the `clean` signal,
    /// the noise stages on the `noise`, then, on their sum (left in `noise`), the stages
    /// acting on everything received.
    private static func receive(
        clean: UnsafeMutableBufferPointer<Double>, noise out: UnsafeMutableBufferPointer<Double>, count: Int,
        firstSample blockStart: Int, through channel: inout ChannelChain
    ) {
        let part = UnsafeMutableBufferPointer(rebasing: clean[0..<(2 * count)])
        channel.applySignal(part, firstSample: blockStart)
        channel.applyNoise(
            UnsafeMutableBufferPointer(rebasing: out[0..<(2 * count)]),
            firstSample: blockStart)
        for index in 0..<(2 * count) { out[index] += clean[index] }
        channel.applyReceived(
            UnsafeMutableBufferPointer(rebasing: out[0..<(2 * count)]),
            firstSample: blockStart)
    }

    /// The pulse amplitude (LSB) of a reply of `snrDb` whose pulses fill half its air time,
    /// as a Mode S reply's do: for Mode A/C replies, whose SNR means the same pulse level.
    func pulseAmplitude(snrDb: Double) -> Double {
        (DeterministicMath.powerRatio(decibels: snrDb) * noisePower / 0.5).squareRoot()
    }

    /// Adds the pulses of one Mode A/C reply that fall inside [blockStart, blockEnd).
    private func addPulses(
        _ reply: ModeACReply, amplitude: Double, starts: [Double], span: (first: Int, last: Int),
        blockStart: Int, blockEnd: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let first = max(span.first, blockStart)
        let last = min(span.last, blockEnd - 1)
        guard first <= last else { return }
        let omega = 2 * DeterministicMath.pi * reply.frequencyOffsetHz
        var (s, c) = DeterministicMath.sinCos(reply.phase + omega * (Double(first) / sampleRate - reply.time))
        let (stepS, stepC) = DeterministicMath.sinCos(omega / sampleRate)
        for n in first...last {
            let t = (Double(n) / sampleRate - reply.time) * 1e6
            var e = 0.0
            for start in starts where t > start - 1 && t < start + 1.5 {
                e += shaper.pulse(at: t - start, widthUs: ModeACReplies.pulseWidthUs)
            }
            let index = 2 * (n - blockStart)
            out[index] += amplitude * e * c
            out[index + 1] += amplitude * e * s
            let rotatedC = c * stepC - s * stepS
            s = s * stepC + c * stepS
            c = rotatedC
        }
    }

    /// Adds one burst's samples that fall inside [blockStart, blockEnd).
    private func addBurst(
        _ burst: Transmission, amplitude: Double, span: (first: Int, last: Int),
        blockStart: Int, blockEnd: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let first = max(span.first, blockStart)
        let last = min(span.last, blockEnd - 1)
        guard first <= last, amplitude > 0 else { return }
        // Carrier phasor at the first sample, then rotated one sample at a time.
        let omega = 2 * DeterministicMath.pi * burst.frequencyOffsetHz
        let t0 = Double(first) / sampleRate - burst.time
        var (s, c) = DeterministicMath.sinCos(burst.phase + omega * t0)
        let (stepS, stepC) = DeterministicMath.sinCos(omega / sampleRate)
        let (echoSin, echoCos) = DeterministicMath.sinCos(burst.echo?.phase ?? 0)
        for n in first...last {
            let t = (Double(n) / sampleRate - burst.time) * 1e6
            let e = amplitude * shaper.envelope(burst.bits, at: t)
            let index = 2 * (n - blockStart)
            out[index] += e * c
            out[index + 1] += e * s
            if let echo = burst.echo {
                // The copy: the envelope `delay` later, its carrier turned by the echo's phase.
                let d = amplitude * echo.gain * shaper.envelope(burst.bits, at: t - echo.delay * 1e6)
                out[index] += d * (c * echoCos - s * echoSin)
                out[index + 1] += d * (s * echoCos + c * echoSin)
            }
            let rotatedC = c * stepC - s * stepS
            s = s * stepC + c * stepS
            c = rotatedC
        }
    }
}
