import FoundationEssentials
import IQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes blocks of interleaved I/Q values to a file in a given format, converting and
/// clipping on the way. One reusable byte buffer; no allocation per block once it has grown.
///
/// The simulator works in "cu8 LSB" units: full scale is ±127.5 and the noise is 4.0 LSB rms
/// per component. `cu8` stores round(x + 127.5) clipped to 0...255; `cs16` stores round(256·x)
/// clipped to ±32767 (same headroom, 8 more bits); `cf32` stores x / 127.5 as a 32-bit float
/// clipped to ±1. Samples are interleaved I, Q, little-endian.
package final class SampleWriter {
    /// The output format.
    package let format: SampleFormat
    /// Bytes written so far.
    package private(set) var bytesWritten = 0
    /// Components (I or Q) that had to be clipped to the format's range.
    package private(set) var clippedComponents = 0
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []

    /// Opens (creates or truncates) `path` for writing.
    package init(path: String, format: SampleFormat) throws {
        guard let file = fopen(path, "wb") else {
            throw SimulationError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        self.format = format
    }

    deinit { fclose(file) }

    /// Converts and writes interleaved I/Q values.
    package func write(_ values: UnsafeBufferPointer<Double>) throws {
        let needed = values.count * format.bytesPerSample / 2
        if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
        var clipped = 0
        buffer.withUnsafeMutableBufferPointer { out in
            switch format {
            case .cu8:
                for index in 0..<values.count {
                    // Code k stands for k − 127.5, so the nearest code is ⌊x + 128⌋.
                    let code = (values[index] + 128).rounded(.down)
                    let clamped = min(max(code, 0), 255)
                    if clamped != code { clipped += 1 }
                    out[index] = UInt8(clamped)
                }
            case .cs16:
                for index in 0..<values.count {
                    let code = (values[index] * 256).rounded()
                    let clamped = min(max(code, -32767), 32767)
                    if clamped != code { clipped += 1 }
                    let word = UInt16(bitPattern: Int16(clamped))
                    out[2 * index] = UInt8(truncatingIfNeeded: word)
                    out[2 * index + 1] = UInt8(truncatingIfNeeded: word >> 8)
                }
            case .cf32:
                for index in 0..<values.count {
                    let scaled = values[index] / 127.5
                    let clamped = min(max(scaled, -1), 1)
                    if clamped != scaled { clipped += 1 }
                    let word = Float(clamped).bitPattern
                    for byte in 0..<4 { out[4 * index + byte] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(byte))) }
                }
            }
        }
        clippedComponents += clipped
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, needed, file) }
        guard written == needed else {
            throw SimulationError.cannotWrite(path: "IQ output", reason: String(cString: strerror(errno)))
        }
        bytesWritten += needed
    }

    /// Flushes buffered bytes to the file.
    package func close() throws {
        guard fflush(file) == 0 else {
            throw SimulationError.cannotWrite(path: "IQ output", reason: String(cString: strerror(errno)))
        }
    }
}
