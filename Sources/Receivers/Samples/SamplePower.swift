import FoundationEssentials
import IQ
import ModeSDemod

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The receiver's noise level from raw IQ samples, for the `noise` of stats.json: the mean
/// power of the noise, relative to full scale.
///
/// The mean power of all samples would count the replies too, and in a busy sky they raise it
/// by several dB. Noise alone is complex Gaussian, whose power follows an exponential
/// distribution: the fraction p of samples at or below a power t is 1 − e^(−t/mean), so
/// mean = t / −ln(1 − p). Replies are loud in a minority of the samples (half of each reply's
/// chips are empty), so taking t near the lower quartile measures the noise: with a tenth of
/// the samples loud it reads about half a dB high (a plain mean would read 10 dB high), and
/// about 1 dB high with a fifth loud, as in the densest skies. Using the exact fraction at
/// the threshold, rather than assuming a quarter, keeps the coarse steps of 8-bit samples
/// (whose powers take only a few values near the noise) from biasing the result.
/// The quartile comes from a histogram of 0.25 dB bins, kept between blocks so that nothing is
/// allocated per block. Every `stride`th sample is enough: a standard block (half a million
/// samples) still gives sixteen thousand, whose lower quartile puts the level within a tenth of a
/// dB, and the measurement stays a small fraction of demodulation's cost (its table lookups miss
/// the cache).
struct SamplePower {
    /// Samples between two measured ones.
    static let stride = 32
    /// Width of a histogram bin, dB.
    static let binWidth = 0.25
    /// The lowest level the histogram holds, dBFS (below any real receiver's noise).
    static let floorDB = -90.0

    private var bins = [Int](repeating: 0, count: Int(-floorDB / binWidth) + 1)
    /// The bin of every cu8 sample, indexed by its I byte × 256 + its Q byte: the logarithm
    /// per sample would cost as much as a tenth of demodulating the block. Made once, for
    /// every stream (a replay that loops starts a new stream each pass).
    private static let cu8Bins: [UInt16] = (0..<65536).map { pair in
        let i = (Double(pair >> 8) - 127.5) / 127.5
        let q = (Double(pair & 255) - 127.5) / 127.5
        return UInt16(bin(ofPower: i * i + q * q))
    }

    /// An empty meter.
    init() {}

    /// What one block's measured samples showed.
    struct Measurement {
        /// The mean noise power, relative to full scale (0 when nothing was measured).
        var power: Double
        /// Samples measured.
        var measured: Int
        /// Measured samples with I or Q at the converter's rails (a cu8 code of 0 or 255): a
        /// strong reply cut flat. Counted for cu8, the dongle's own format, only.
        var clipped: Int
    }

    /// The noise power of the whole samples of `bytes` in `format`, how many samples were
    /// measured and how many of those were clipped; all 0 for an empty block.
    mutating func noise(of bytes: UnsafeRawBufferPointer, format: SampleFormat) -> Measurement {
        let size = format.bytesPerSample
        let count = bytes.count / size
        guard count > 0, let base = bytes.baseAddress else { return Measurement(power: 0, measured: 0, clipped: 0) }
        for index in bins.indices { bins[index] = 0 }
        let measured = (count + Self.stride - 1) / Self.stride
        var clipped = 0
        switch format {
        case .cu8:
            Self.cu8Bins.withUnsafeBufferPointer { table in
                bins.withUnsafeMutableBufferPointer { bins in
                    for index in Swift.stride(from: 0, to: count, by: Self.stride) {
                        // I in the high byte, Q in the low one, as the table is indexed.
                        let pair = base.loadUnaligned(fromByteOffset: index * size, as: UInt16.self).bigEndian
                        bins[Int(table[Int(pair)])] += 1
                        let i = pair >> 8
                        let q = pair & 0xFF
                        if i == 0 || i == 255 || q == 0 || q == 255 { clipped += 1 }
                    }
                }
            }
        case .cs16:
            for index in Swift.stride(from: 0, to: count, by: Self.stride) {
                let i =
                    Double(Int16(littleEndian: base.loadUnaligned(fromByteOffset: index * size, as: Int16.self)))
                    / 32768
                let q =
                    Double(Int16(littleEndian: base.loadUnaligned(fromByteOffset: index * size + 2, as: Int16.self)))
                    / 32768
                bins[Self.bin(ofPower: i * i + q * q)] += 1
            }
        case .cf32:
            for index in Swift.stride(from: 0, to: count, by: Self.stride) {
                let i = Double(MagnitudeConverter.cf32Component(base, byteOffset: index * size))
                let q = Double(MagnitudeConverter.cf32Component(base, byteOffset: index * size + 4))
                bins[Self.bin(ofPower: i * i + q * q)] += 1
            }
        }
        var below = 0
        for (bin, samples) in bins.enumerated() {
            below += samples
            if 4 * below >= measured, below < measured {
                let threshold = pow(10, (Self.floorDB + Double(bin + 1) * Self.binWidth) / 10)
                let fraction = Double(below) / Double(measured)
                return Measurement(power: threshold / -log(1 - fraction), measured: measured, clipped: clipped)
            }
        }
        return Measurement(power: 0, measured: measured, clipped: clipped)
    }

    /// The histogram bin of a sample of `power` (relative to full scale).
    private static func bin(ofPower power: Double) -> Int {
        let level = power > 0 ? 10 * log10(power) : floorDB
        return min(Int(-floorDB / binWidth), max(0, Int((level - floorDB) / binWidth)))
    }
}
