import FoundationEssentials
import IQ
import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// IQ samples with Mode S replies of perfectly rectangular pulses, each at a chosen start,
/// amplitude and carrier offset, over deterministic Gaussian noise.
///
/// Where `Simulation` models a whole sky through a receiver's band limit, this is the exact
/// chip model the demodulator itself assumes (a sample integrates the signal over its own
/// period), with every reply placed by hand: demodulator tests use it to put a reply at a
/// known sub-sample phase or under another one, and `aviator-adsb bench` to make a stream of
/// known content.
package struct RectangularSignal: Sendable {
    /// One reply to place in the recording.
    package struct Burst: Sendable {
        package var bits: ModeSBits
        /// Start of the first preamble pulse, in (fractional) samples.
        package var start: Double
        /// Pulse amplitude in cu8 LSB (full scale 127.5).
        package var amplitude: Double
        /// Carrier offset from the tuned frequency, Hz: transponders differ by tens of kHz,
        /// which is what lets overlapping replies be told apart by their carriers.
        package var frequencyOffset: Double = 0

        /// A reply of `bits` starting at `start` (samples) with pulses `amplitude` LSB high.
        package init(bits: ModeSBits, start: Double, amplitude: Double, frequencyOffset: Double = 0) {
            self.bits = bits
            self.start = start
            self.amplitude = amplitude
            self.frequencyOffset = frequencyOffset
        }
    }

    /// The sample rate of the recording.
    package var sampleRate: SampleRate
    /// How many complex samples it holds.
    package var sampleCount: Int
    /// Noise standard deviation per component, in cu8 LSB (4 LSB rms in all, as a dongle's).
    package var noise: Double = 4 / 2.squareRoot()
    /// Seed of the noise and of each reply's carrier phase: the same seed, the same samples.
    package var seed: UInt64 = 1

    /// A recording of `sampleCount` samples at `sampleRate`.
    package init(sampleRate: SampleRate, sampleCount: Int, noise: Double = 4 / 2.squareRoot(), seed: UInt64 = 1) {
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
        self.noise = noise
        self.seed = seed
    }

    /// The complex samples (I, Q interleaved) in cu8 LSB around zero.
    package func samples(_ bursts: [Burst]) -> [Double] {
        var iq = [Double](repeating: 0, count: 2 * sampleCount)
        var state = seed
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }
        for index in stride(from: 0, to: iq.count, by: 2) {
            let radius = (-2 * Glibc.log(uniform())).squareRoot() * noise
            let angle = 2 * Double.pi * uniform()
            iq[index] = radius * cos(angle)
            iq[index + 1] = radius * sin(angle)
        }
        let chip = Double(sampleRate.hertz) / 2e6  // samples per 0.5 µs chip
        for burst in bursts {
            var chips: [Bool] = [
                true, false, true, false, false, false, false, true,
                false, true, false, false, false, false, false, false
            ]
            for number in 1...burst.bits.bitCount {
                let one = burst.bits.bit(number) == 1
                chips.append(one)
                chips.append(!one)
            }
            let phase = 2 * Double.pi * uniform()
            let first = Int(burst.start.rounded(.down))
            let last = min(sampleCount - 1, Int(burst.start + Double(chips.count) * chip) + 1)
            for sample in max(0, first)...last {
                // Fraction of this sample's period covered by "on" chips.
                var on = 0.0
                let steps = 20
                for step in 0..<steps {
                    let t = Double(sample) + (Double(step) + 0.5) / Double(steps) - burst.start
                    let index = Int((t / chip).rounded(.down))
                    if t >= 0, index < chips.count, chips[index] { on += 1 }
                }
                let envelope = burst.amplitude * on / Double(steps)
                let carrier = phase + 2 * Double.pi * burst.frequencyOffset * Double(sample) / Double(sampleRate.hertz)
                iq[2 * sample] += envelope * cos(carrier)
                iq[2 * sample + 1] += envelope * sin(carrier)
            }
        }
        return iq
    }

    /// The recording encoded as `format` bytes.
    package func bytes(_ bursts: [Burst], format: SampleFormat) -> [UInt8] {
        Self.encode(samples(bursts), format: format)
    }

    /// Complex samples in cu8 LSB (I, Q interleaved, as `samples` gives them) encoded as
    /// `format` bytes, clipped at each format's limits.
    package static func encode(_ iq: [Double], format: SampleFormat) -> [UInt8] {
        var out = [UInt8]()
        switch format {
        case .cu8:
            out = iq.map { UInt8(max(0, min(255, ($0 + 127.5).rounded()))) }
        case .cs16:
            for value in iq {
                let scaled = Int16(max(-32768, min(32767, (value * 256).rounded())))
                withUnsafeBytes(of: scaled.littleEndian) { out.append(contentsOf: $0) }
            }
        case .cf32:
            for value in iq {
                let scaled = Float(value / 127.5)
                withUnsafeBytes(of: scaled.bitPattern.littleEndian) { out.append(contentsOf: $0) }
            }
        }
        return out
    }

    /// A valid DF17 reply for `address` with a varying payload.
    package static func extendedSquitter(address: UInt32, payload: UInt64) -> ModeSBits {
        var bits = ModeSBits(bitCount: 112)
        bits.setField(1, 5, 17)
        bits.setField(6, 8, 5)
        bits.setField(9, 32, UInt64(address))
        bits.setField(33, 88, payload & ((1 << 56) - 1))
        return CRC.withParity(bits)
    }
}
