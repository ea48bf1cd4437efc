import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes frames in the Beast binary format, the format of TCP port 30005 that feeders,
/// tar1090/readsb, mlat clients and other decoders take as input.
///
/// One frame is 0x1A, a type byte ('2' for a 56-bit message, '3' for a 112-bit one), the
/// 48-bit timestamp in ticks of a 12 MHz clock (big-endian), one signal byte and the message
/// bytes. Every 0x1A after the leading one is sent twice, so a receiver can always find the
/// start of the next frame.
public enum BeastEncoder {
    /// The byte that starts a frame (and is doubled inside one).
    public static let escape: UInt8 = 0x1A
    /// Type byte of a 56-bit Mode S message.
    public static let shortType: UInt8 = 0x32
    /// Type byte of a 112-bit Mode S message.
    public static let longType: UInt8 = 0x33
    /// Largest encoded frame: 2 + (6 + 1 + 14) bytes, every body byte doubled in the worst case.
    public static let maximumFrameBytes = 2 + 2 * 21

    /// The signal byte for a level in dBFS, as dump1090 and readsb write it: the square root
    /// of the power relative to full scale (the RMS amplitude), times 255, rounded. Readers
    /// square it back into a power. A level at or above 0 dBFS saturates at 255; any received
    /// level gives at least 1, since 0 reads as "no signal level"; an unknown level gives 0.
    public static func signalByte(dBFS level: Double) -> UInt8 {
        guard level.isFinite else { return 0 }
        let amplitude = pow(10, level / 20) * 255
        return UInt8(min(255, max(1, amplitude.rounded())))
    }

    /// Appends `frame` to `bytes` (no allocation when `bytes` has room).
    public static func append(_ frame: Frame, to bytes: inout [UInt8]) {
        let bits = frame.bits
        bytes.append(escape)
        bytes.append(bits.bitCount == 112 ? longType : shortType)
        // 48 bits of timestamp: the Beast clock wraps after about 270 days.
        let timestamp = frame.timestamp & 0xFFFF_FFFF_FFFF
        for shift in stride(from: 40, through: 0, by: -8) {
            appendEscaped(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift)), to: &bytes)
        }
        appendEscaped(signalByte(dBFS: frame.signalLevel), to: &bytes)
        for index in 0..<bits.byteCount { appendEscaped(bits.byte(index), to: &bytes) }
    }

    /// `frame` as one Beast frame.
    public static func encode(_ frame: Frame) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumFrameBytes)
        append(frame, to: &bytes)
        return bytes
    }

    @inline(__always)
    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(byte)
        if byte == escape { bytes.append(escape) }
    }
}
