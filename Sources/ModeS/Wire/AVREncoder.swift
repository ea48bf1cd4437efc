/// Writes frames in the AVR raw format of TCP port 30002: `*`, the message in upper-case
/// hexadecimal, `;` and a newline — the line format pyModeS's TCP client and many hobby
/// scripts read. With a timestamp, the line is AVR with MLAT instead: `@`, the 48-bit 12 MHz
/// timestamp in 12 hex digits, then the message, `;` and a newline (`MessageLine` reads both).
public enum AVREncoder {
    /// Longest line: `@`, 12 timestamp digits, 28 hex digits, `;`, newline.
    public static let maximumLineBytes = 43

    /// Appends the line for `bits` to `bytes`: `*HEX;`, or `@TTTTTTTTTTTTHEX;` when a
    /// `timestamp` (12 MHz ticks, low 48 bits written) is given.
    public static func append(_ bits: ModeSBits, timestamp: UInt64? = nil, to bytes: inout [UInt8]) {
        if let timestamp {
            bytes.append(UInt8(ascii: "@"))
            for shift in stride(from: 44, through: 0, by: -4) {
                bytes.append(digit(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift)) & 0x0F))
            }
        } else {
            bytes.append(UInt8(ascii: "*"))
        }
        for index in 0..<bits.byteCount {
            let value = bits.byte(index)
            bytes.append(digit(value >> 4))
            bytes.append(digit(value & 0x0F))
        }
        bytes.append(UInt8(ascii: ";"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The line for `bits`, newline included (with MLAT when a `timestamp` is given).
    public static func line(_ bits: ModeSBits, timestamp: UInt64? = nil) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumLineBytes)
        append(bits, timestamp: timestamp, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
