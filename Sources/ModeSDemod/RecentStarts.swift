import ModeS

/// The most recent candidate starts (in stream order) whose preamble passed but whose bits
/// failed, with their preamble scores.
///
/// When a frame is later found to have buried another reply, the buried one's preamble
/// lies among these, up to one long reply back; the residual search takes them from here
/// instead of scoring the unchanged samples before the frame again.
struct RecentStarts {
    /// Enough for one long reply's worth of failed starts in a busy sky.
    static let capacity = 128
    private var starts = [Int](repeating: Int.min, count: capacity)
    private var scores = [Int32](repeating: 0, count: capacity)
    /// Where the next start goes; the oldest one is overwritten.
    private var next = 0

    init() {}

    /// Remembers `start`, which must not precede the starts already remembered.
    mutating func append(_ start: Int, score: Int32) {
        starts[next] = start
        scores[next] = score
        next = (next + 1) % Self.capacity
    }

    /// Calls `body` with every remembered start in `lower..<upper` and its score.
    func forEach(from lower: Int, before upper: Int, _ body: (Int, Int32) -> Void) {
        for index in 0..<Self.capacity {
            let start = starts[index]
            if start >= lower, start < upper { body(start, scores[index]) }
        }
    }
}
