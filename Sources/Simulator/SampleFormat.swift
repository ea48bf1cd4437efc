/// The IQ sample formats: what an RTL-SDR delivers (`cu8`) and the wider formats other
/// tools write (`cs16`, `cf32`). All three carry the same signal relative to full scale.
///
/// Internally the simulator works in "cu8 LSB" units: full scale is ±127.5 and the noise is
/// 4.0 LSB rms per component. `cu8` stores round(x + 127.5) clipped to 0...255; `cs16`
/// stores round(256·x) clipped to ±32767 (same headroom, 8 more bits); `cf32` stores
/// x / 127.5 as a 32-bit float clipped to ±1. Samples are interleaved I, Q, little-endian.
public enum SampleFormat: String, Sendable, CaseIterable {
    /// Unsigned 8-bit I and Q, centred on 127.5 (RTL-SDR native).
    case cu8
    /// Signed 16-bit little-endian I and Q.
    case cs16
    /// 32-bit little-endian IEEE float I and Q, full scale ±1.
    case cf32

    /// Bytes per complex sample.
    public var bytesPerSample: Int {
        switch self {
        case .cu8: return 2
        case .cs16: return 4
        case .cf32: return 8
        }
    }
}
