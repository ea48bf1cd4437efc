/// Renders transmissions and receiver noise into IQ samples, block by block.
///
/// Noise is complex white Gaussian noise of `noiseSigma` (cu8 LSB units) per component, so
/// the complex noise power is 2·σ² (32 LSB² at the default 4 LSB). A burst of SNR S dB gets
/// the amplitude A for which A² × mean(envelope²) over the burst = 10^(S/10) × 2σ², which is
/// DESIGN's definition (mean power of the noise-free burst over its duration divided by the
/// complex noise power). The carrier is A·e^{i(φ + 2π f t)}: a random phase per message and
/// the aircraft's frequency offset, so the phase rotates across the burst. Overlapping
/// bursts add as complex fields, as they do in a real receiver.
public struct Modulator: Sendable {
    /// Samples per second (2.0 or 2.4 million).
    public let sampleRate: Double
    /// Noise standard deviation per component, cu8 LSB.
    public let noiseSigma: Double
    /// The pulse shape.
    public let shaper: PulseShaper

    /// A modulator at `sampleRate` with noise `noiseSigma` LSB rms per component.
    public init(sampleRate: Double, noiseSigma: Double = 4.0, riseTimeUs: Double = 0.1) {
        self.sampleRate = sampleRate
        self.noiseSigma = noiseSigma
        self.shaper = PulseShaper(sampleRate: sampleRate, riseTimeUs: riseTimeUs)
    }

    /// Complex noise power, LSB².
    public var noisePower: Double { 2 * noiseSigma * noiseSigma }

    /// The carrier amplitude (LSB) that gives `transmission` its SNR.
    public func amplitude(for transmission: Transmission) -> Double {
        let shapePower = shaper.meanPower(transmission.bits, start: transmission.time)
        guard shapePower > 0 else { return 0 }
        let power = DeterministicMath.powerRatio(decibels: transmission.snrDb) * noisePower
        return (power / shapePower).squareRoot()
    }

    /// Renders `totalSamples` samples of noise plus `transmissions` (sorted by time) and hands
    /// them to `consume` in blocks of interleaved I/Q values.
    public func render(_ transmissions: [Transmission], totalSamples: Int, noise: inout SeededGenerator,
                       blockSize: Int = 1 << 16,
                       consume: (UnsafeBufferPointer<Double>) throws -> Void) rethrows {
        let amplitudes = transmissions.map(amplitude(for:))
        let spans = transmissions.map { shaper.sampleSpan(start: $0.time, duration: $0.duration) }
        var block = [Double](repeating: 0, count: 2 * blockSize)
        var active: [Int] = []
        active.reserveCapacity(64)
        var next = 0
        var blockStart = 0
        while blockStart < totalSamples {
            let count = min(blockSize, totalSamples - blockStart)
            let blockEnd = blockStart + count // exclusive
            // A local copy of the generator keeps its state in registers in the hot loop.
            var generator = noise
            try block.withUnsafeMutableBufferPointer { out in
                for index in 0..<count {
                    let (i, q) = generator.gaussianPair()
                    out[2 * index] = i * noiseSigma
                    out[2 * index + 1] = q * noiseSigma
                }
                while next < transmissions.count, spans[next].first < blockEnd {
                    active.append(next)
                    next += 1
                }
                for id in active {
                    addBurst(transmissions[id], amplitude: amplitudes[id], span: spans[id],
                             blockStart: blockStart, blockEnd: blockEnd, into: out)
                }
                active.removeAll { spans[$0].last < blockEnd }
                try consume(UnsafeBufferPointer(rebasing: out[0..<(2 * count)]))
            }
            noise = generator
            blockStart = blockEnd
        }
    }

    /// Adds one burst's samples that fall inside [blockStart, blockEnd).
    private func addBurst(_ burst: Transmission, amplitude: Double, span: (first: Int, last: Int),
                          blockStart: Int, blockEnd: Int, into out: UnsafeMutableBufferPointer<Double>) {
        let first = max(span.first, blockStart)
        let last = min(span.last, blockEnd - 1)
        guard first <= last, amplitude > 0 else { return }
        // Carrier phasor at the first sample, then rotated one sample at a time.
        let omega = 2 * DeterministicMath.pi * burst.frequencyOffsetHz
        let t0 = Double(first) / sampleRate - burst.time
        var (s, c) = DeterministicMath.sinCos(burst.phase + omega * t0)
        let (stepS, stepC) = DeterministicMath.sinCos(omega / sampleRate)
        for n in first...last {
            let t = (Double(n) / sampleRate - burst.time) * 1e6
            let e = amplitude * shaper.envelope(burst.bits, at: t)
            let index = 2 * (n - blockStart)
            out[index] += e * c
            out[index + 1] += e * s
            let rotatedC = c * stepC - s * stepS
            s = s * stepC + c * stepS
            c = rotatedC
        }
    }
}
