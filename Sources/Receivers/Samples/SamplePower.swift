import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ModeSDemod

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
/// allocated per block; every `stride`th sample is enough for a level over a quarter of a
/// million of them, and keeps the measurement a small fraction of demodulation's cost.
struct SamplePower {
    /// Samples between two measured ones.
    static let stride = 8
    /// Width of a histogram bin, dB.
    static let binWidth = 0.25
    /// The lowest level the histogram holds, dBFS (below any real receiver's noise).
    static let floorDB = -90.0

    private var bins = [Int](repeating: 0, count: Int(-floorDB / binWidth) + 1)

    /// An empty meter.
    init() {}

    /// The noise power of the whole samples of `bytes` in `format`, and how many samples were
    /// measured; (0, 0) for an empty block.
    mutating func noise(of bytes: UnsafeRawBufferPointer, format: SampleFormat) -> (power: Double, measured: Int) {
        let size = format.bytesPerSample
        let count = bytes.count / size
        guard count > 0, let base = bytes.baseAddress else { return (0, 0) }
        for index in bins.indices { bins[index] = 0 }
        var measured = 0
        for index in Swift.stride(from: 0, to: count, by: Self.stride) {
            let offset = index * size
            let i: Double, q: Double
            switch format {
            case .cu8:
                i = (Double(base.load(fromByteOffset: offset, as: UInt8.self)) - 127.5) / 127.5
                q = (Double(base.load(fromByteOffset: offset + 1, as: UInt8.self)) - 127.5) / 127.5
            case .cs16:
                i = Double(Int16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32768
                q = Double(Int16(littleEndian: base.loadUnaligned(fromByteOffset: offset + 2, as: Int16.self))) / 32768
            case .cf32:
                i = Double(MagnitudeConverter.cf32Component(base, byteOffset: offset))
                q = Double(MagnitudeConverter.cf32Component(base, byteOffset: offset + 4))
            }
            let power = i * i + q * q
            let level = power > 0 ? 10 * log10(power) : Self.floorDB
            bins[min(bins.count - 1, max(0, Int((level - Self.floorDB) / Self.binWidth)))] += 1
            measured += 1
        }
        var below = 0
        for (bin, samples) in bins.enumerated() {
            below += samples
            if 4 * below >= measured, below < measured {
                let threshold = pow(10, (Self.floorDB + Double(bin + 1) * Self.binWidth) / 10)
                let fraction = Double(below) / Double(measured)
                return (threshold / -log(1 - fraction), measured)
            }
        }
        return (0, measured)
    }
}
