import ModeS

/// The last few accepted frames and where they started, so that the same reply found a
/// second time (at a neighbouring start, or again in the residual of a cancelled frame) is
/// not emitted twice.
struct RecentFrames {
    /// Enough for every frame that can overlap one reply in the busiest sky.
    private static let capacity = 16
    private var bits = [ModeSBits](repeating: ModeSBits(bitCount: 56), count: capacity)
    private var positions = [Int](repeating: Int.min / 2, count: capacity)
    private var phases = [Int](repeating: 0, count: capacity)
    private var next = 0

    init() {}

    /// Remembers `frame` at `position` (sub-sample phase `phase`) and returns true, or
    /// returns false when the same bits were accepted less than `distance` samples away.
    mutating func insert(_ frame: ModeSBits, at position: Int, phase: Int, within distance: Int) -> Bool {
        for index in 0..<Self.capacity where bits[index] == frame && abs(positions[index] - position) < distance {
            return false
        }
        bits[next] = frame
        positions[next] = position
        phases[next] = phase
        next = (next + 1) % Self.capacity
        return true
    }

    /// Calls `body` with each remembered frame, its start and its phase.
    func visit(_ body: (_ bits: ModeSBits, _ position: Int, _ phase: Int) -> Void) {
        for index in 0..<Self.capacity where positions[index] > Int.min / 2 {
            body(bits[index], positions[index], phases[index])
        }
    }
}
