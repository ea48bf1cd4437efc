/// Turns the bytes a terminal sends in raw mode into key presses. Arrow keys arrive as escape
/// sequences (`ESC [ C`, or `ESC O C` in application cursor mode), possibly split across reads,
/// so an incomplete sequence is kept until the next bytes arrive.
package struct KeyReader: Sendable {
    private var pending: [UInt8] = []

    /// A reader with nothing pending.
    package init() {}

    /// The keys in `bytes`, following on from any sequence left incomplete by the last call.
    package mutating func keys(from bytes: some Sequence<UInt8>) -> [RadarKey] {
        pending.append(contentsOf: bytes)
        var keys: [RadarKey] = []
        var i = 0
        while i < pending.count {
            let byte = pending[i]
            if byte == 0x1B {
                guard i + 1 < pending.count else { break }  // wait for the rest
                let introducer = pending[i + 1]
                guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
                    i += 1  // a lone Escape: ignored
                    continue
                }
                // CSI: parameter bytes 0x30-0x3F, then one final byte 0x40-0x7E (e.g. "ESC [ 1 ; 5 C").
                var end = i + 2
                while end < pending.count, (0x30...0x3F).contains(pending[end]) { end += 1 }
                guard end < pending.count else { break }
                switch pending[end] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break  // other function keys are ignored
                }
                i = end + 1
            } else if byte == 0x03 {
                keys.append(.interrupt)
                i += 1
            } else if byte < 0x80 {
                if byte >= 0x20 && byte != 0x7F { keys.append(.character(Character(Unicode.Scalar(byte)))) }
                i += 1
            } else {
                // A multi-byte UTF-8 character: the radar has no such keys; skip the whole of it.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard i + length <= pending.count else { break }
                i += length
            }
        }
        pending.removeFirst(i)
        // A stray escape sequence that never ends must not hold back the keys after it forever.
        if pending.count > 16 { pending.removeAll() }
        return keys
    }
}
