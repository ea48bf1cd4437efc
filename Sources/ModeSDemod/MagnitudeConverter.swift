import IQ
import ModeS

/// Turns raw IQ bytes into sample magnitudes, the only thing an amplitude-modulated Mode S
/// reply needs (its carrier phase is random and carries no information).
///
/// Magnitudes are `UInt16` on a fixed scale: 65535 is the loudest sample a receiver can
/// give, both components at full scale (an amplitude of √2), so an amplitude of 1.0 (e.g.
/// I = 127.5 LSB around the cu8 centre) is about 46341. Nothing a converter delivers
/// saturates: a reply strong enough to reach the rails keeps the shape of its pulses in the
/// magnitudes (a scale that saturated at 1.0 would flatten every pulse louder than that,
/// and the phase of a strong reply could no longer be told from its preamble). Sixteen
/// bits keep the weakest noise (about 4 LSB rms in cu8, i.e. ~1500 on this scale) well
/// resolved while the demodulator's integer sums cannot overflow.
package struct MagnitudeConverter: Sendable {
    /// The sample layout being converted.
    package let format: SampleFormat
    /// For cu8: the magnitude of every (I, Q) byte pair, indexed by the pair read as one
    /// little-endian 16-bit word (I in the low byte). 128 KiB, built once; a lookup is far
    /// cheaper than a square root per sample.
    private let table: [UInt16]

    /// The magnitude of an amplitude of 1.0 (one component at full scale): 65535 / √2.
    package static let fullScale = 65535.0 / 2.0.squareRoot()

    /// A converter for `format`.
    package init(format: SampleFormat) {
        self.format = format
        if format == .cu8 {
            var table = [UInt16](repeating: 0, count: 65536)
            for word in 0..<65536 {
                let i = (Double(word & 0xFF) - 127.5) / 127.5
                let q = (Double(word >> 8) - 127.5) / 127.5
                table[word] = Self.scaled((i * i + q * q).squareRoot())
            }
            self.table = table
        } else {
            self.table = []
        }
    }

    /// Converts `count` whole samples starting at `source` into `destination[0..<count]`.
    /// `source` may be unaligned.
    @inline(__always)
    package func convert(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutablePointer<UInt16>) {
        switch format {
        case .cu8:
            table.withUnsafeBufferPointer { table in
                let lookup = table.baseAddress!
                for index in 0..<count {
                    let word = source.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self)
                    destination[index] = lookup[Int(UInt16(littleEndian: word))]
                }
            }
        case .cs16:
            // Full scale of a signed 16-bit sample is 32768.
            let scale = Float(Self.fullScale / 32768.0)
            for index in 0..<count {
                let i = Float(Int16(littleEndian: source.loadUnaligned(fromByteOffset: 4 * index, as: Int16.self)))
                let q = Float(Int16(littleEndian: source.loadUnaligned(fromByteOffset: 4 * index + 2, as: Int16.self)))
                destination[index] = Self.saturate((i * i + q * q).squareRoot() * scale)
            }
        case .cf32:
            let scale = Float(Self.fullScale)
            for index in 0..<count {
                let i = Self.cf32Component(source, byteOffset: 8 * index)
                let q = Self.cf32Component(source, byteOffset: 8 * index + 4)
                destination[index] = Self.saturate((i * i + q * q).squareRoot() * scale)
            }
        }
    }

    /// One I or Q value of a cf32 sample at `byteOffset`. A float file can hold anything: an
    /// infinity or NaN counts as silence, and a value is clamped to ±2 (twice full scale, beyond
    /// which a real converter has long clipped) so that squares and products of samples stay
    /// finite everywhere downstream.
    @inline(__always)
    package static func cf32Component(_ source: UnsafeRawPointer, byteOffset: Int) -> Float {
        let value = Float(
            bitPattern: UInt32(littleEndian: source.loadUnaligned(fromByteOffset: byteOffset, as: UInt32.self)))
        guard value.isFinite else { return 0 }
        return min(2, max(-2, value))
    }

    /// Rounds and clamps a scaled magnitude into 0...65535 (NaN counts as silence).
    @inline(__always)
    static func saturate(_ value: Float) -> UInt16 {
        guard value > 0 else { return 0 }  // also catches NaN
        guard value < 65534.5 else { return 65535 }
        return UInt16(value + 0.5)
    }

    private static func scaled(_ amplitude: Double) -> UInt16 {
        saturate(Float(amplitude * fullScale))
    }
}
