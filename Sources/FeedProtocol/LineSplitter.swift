/// Cuts a byte stream into newline-ended lines, keeping a partial line until its end arrives:
/// how both ends of the feed read it (the server a client's commands, a client the server's
/// lines). A line longer than `limit` is reported once and its rest skipped up to its newline,
/// rather than held in unbounded memory.
package struct LineSplitter: Sendable {
    /// One piece of the stream.
    package enum Piece: Sendable, Equatable {
        /// A complete line, without its newline and a trailing carriage return.
        case line([UInt8])
        /// A line that grew past the limit; its bytes up to the next newline are skipped.
        case overlong
    }

    private var pending: [UInt8] = []
    private var skipping = false
    /// Longest line accepted, bytes.
    package let limit: Int

    /// A splitter for lines up to `limit` bytes. The default, 32 MiB, is some 50,000 aircraft
    /// in one frame, far beyond any receiver.
    package init(limit: Int = 32 << 20) {
        self.limit = limit
    }

    /// The pieces `bytes` completes, after any partial line left by the last call.
    package mutating func pieces(from bytes: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == 0x0A {
                if !skipping {
                    if pending.last == 0x0D { pending.removeLast() }
                    pieces.append(.line(pending))
                }
                skipping = false
                pending.removeAll(keepingCapacity: true)
            } else if !skipping {
                pending.append(byte)
                if pending.count > limit {
                    pieces.append(.overlong)
                    pending.removeAll()
                    skipping = true
                }
            }
        }
        return pieces
    }

    /// The complete lines in `bytes`, or nil when one is too long (for a reader that gives up
    /// on such a stream).
    package mutating func lines(from bytes: some Collection<UInt8>) -> [[UInt8]]? {
        var lines: [[UInt8]] = []
        for piece in pieces(from: bytes) {
            switch piece {
            case .line(let line): lines.append(line)
            case .overlong: return nil
            }
        }
        return lines
    }
}
