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
