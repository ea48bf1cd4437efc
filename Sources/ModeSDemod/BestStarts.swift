import ModeS

/// The few best-scoring candidate starts of a stretch of samples, kept apart from each
/// other: the residual search of `StreamingDemodulator` examines only these.
struct BestStarts {
    /// How many starts are kept.
    static let capacity = 3
    private var starts = (Int.min, Int.min, Int.min)
    private var scores = (Int32.min, Int32.min, Int32.min)

    init() {}

    /// Considers `start` with preamble score `score`. A start closer than `separation` to a
    /// kept one is the same preamble seen at a neighbouring sample: only the better of the
    /// two stays.
    mutating func offer(_ start: Int, score: Int32, separation: Int) {
        withUnsafeMutableBytes(of: &starts) { startBytes in
            withUnsafeMutableBytes(of: &scores) { scoreBytes in
                let kept = startBytes.bindMemory(to: Int.self)
                let keptScores = scoreBytes.bindMemory(to: Int32.self)
                // Replace a close neighbour if this one is better, else the weakest.
                var slot = -1
                for index in 0..<Self.capacity where kept[index] != Int.min && abs(kept[index] - start) < separation {
                    slot = index
                    break
                }
                if slot < 0 {
                    slot = 0
                    for index in 1..<Self.capacity where keptScores[index] < keptScores[slot] { slot = index }
                }
                if score > keptScores[slot] {
                    kept[slot] = start
                    keptScores[slot] = score
                }
            }
        }
    }

    /// How many starts are kept.
    var count: Int {
        (starts.0 != Int.min ? 1 : 0) + (starts.1 != Int.min ? 1 : 0) + (starts.2 != Int.min ? 1 : 0)
    }

    /// The kept start of rank `rank` (0..<count) in stream order.
    func start(_ rank: Int) -> Int {
        var ordered = (starts.0, starts.1, starts.2)
        // Three values: sort by hand, without an array. Unused slots (Int.min) come first.
        if ordered.0 > ordered.1 { swap(&ordered.0, &ordered.1) }
        if ordered.1 > ordered.2 { swap(&ordered.1, &ordered.2) }
        if ordered.0 > ordered.1 { swap(&ordered.0, &ordered.1) }
        switch rank + (Self.capacity - count) {
        case 0: return ordered.0
        case 1: return ordered.1
        default: return ordered.2
        }
    }
}
