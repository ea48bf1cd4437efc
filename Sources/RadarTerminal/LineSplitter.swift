
/// Cuts a byte stream into newline-ended lines, keeping a partial line until its end arrives.
/// A line longer than `limit` is an error rather than unbounded memory.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    /// Longest line accepted, bytes.
    public let limit: Int

    /// A splitter for lines up to `limit` bytes. The default, 32 MiB, is some 50,000 aircraft
    /// in one frame, far beyond any receiver.
    public init(limit: Int = 32 << 20) {
        self.limit = limit
    }

    /// The complete lines in `bytes` (without their newlines, a trailing carriage return
    /// removed), after any partial line left by the last call; nil when a line is too long.
    public mutating func lines(from bytes: some Collection<UInt8>) -> [[UInt8]]? {
        var lines: [[UInt8]] = []
        for byte in bytes {
            if byte == 0x0A {
                if pending.last == 0x0D { pending.removeLast() }
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
                if pending.count > limit { return nil }
            }
        }
        return lines
    }
}
