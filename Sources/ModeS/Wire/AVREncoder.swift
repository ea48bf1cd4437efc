
/// Writes frames in the AVR raw format of TCP port 30002: `*`, the message in upper-case
/// hexadecimal, `;` and a newline — the line format pyModeS's TCP client and many hobby
/// scripts read.
public enum AVREncoder {
    /// Longest line: `*`, 28 hex digits, `;`, newline.
    public static let maximumLineBytes = 31

    /// Appends the line for `bits` to `bytes`.
    public static func append(_ bits: ModeSBits, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "*"))
        for index in 0..<bits.byteCount {
            let value = bits.byte(index)
            bytes.append(digit(value >> 4))
            bytes.append(digit(value & 0x0F))
        }
        bytes.append(UInt8(ascii: ";"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The line for `bits`, newline included.
    public static func line(_ bits: ModeSBits) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumLineBytes)
        append(bits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
