import ModeS

/// How one complex IQ sample is laid out in a byte stream.
///
/// - `cu8`: two unsigned bytes, I then Q, centred on 127.5 (what RTL-SDR dongles deliver).
/// - `cs16`: two signed 16-bit little-endian integers (many SDRs and recorders; some write Q
///   first, which does not change a magnitude).
/// - `cf32`: two 32-bit little-endian IEEE floats, full scale 1.0.
package enum SampleFormat: String, Sendable, CaseIterable {
    case cu8
    case cs16
    case cf32

    /// Bytes per complex sample (I and Q together).
    package var bytesPerSample: Int {
        switch self {
        case .cu8: 2
        case .cs16: 4
        case .cf32: 8
        }
    }

    /// Parses a format name as typed on a command line: `cu8`, `cs16` (or its alias `sc16`),
    /// `cf32` (or `fc32`), in any case; nil for anything else.
    package init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "cu8", "uc8": self = .cu8
        case "cs16", "sc16": self = .cs16
        case "cf32", "fc32": self = .cf32
        default: return nil
        }
    }

    /// The format a file name's extension implies (`.cu8`, `.cs16`, `.sc16`, `.cf32`, `.fc32`),
    /// or nil when the extension says nothing.
    package init?(fileName: some StringProtocol) {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        self.init(name: fileName[fileName.index(after: dot)...])
    }
}

extension SampleFormat {
    /// Whether sample `index` of the samples at `raw` was clipped: a component at the
    /// converter's full scale (cu8 codes 0 and 255, cs16 ±32767, cf32 from
    /// `ReplyCanceller.clipLevel`). What lay beyond was lost, so such a sample tells only
    /// that the signal was at least that strong.
    @inline(__always)
    func isClipped(_ raw: UnsafeRawPointer, at index: Int) -> Bool {
        switch self {
        case .cu8:
            let i = raw.load(fromByteOffset: 2 * index, as: UInt8.self)
            let q = raw.load(fromByteOffset: 2 * index + 1, as: UInt8.self)
            return i == 0 || i == 255 || q == 0 || q == 255
        case .cs16:
            let i = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * index, as: Int16.self))
            let q = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * index + 2, as: Int16.self))
            return abs(Int32(i)) >= 32767 || abs(Int32(q)) >= 32767
        case .cf32:
            let i = MagnitudeConverter.cf32Component(raw, byteOffset: 8 * index)
            let q = MagnitudeConverter.cf32Component(raw, byteOffset: 8 * index + 4)
            return abs(i) >= Float(ReplyCanceller.clipLevel) || abs(q) >= Float(ReplyCanceller.clipLevel)
        }
    }
}
