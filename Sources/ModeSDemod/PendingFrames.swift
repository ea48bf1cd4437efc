import ModeS

/// Frames held back until no earlier one can still turn up, then emitted in time order.
///
/// The demodulator finds most frames in stream order, but a reply recovered from under a
/// later, stronger one (see `ReplyCanceller`) can start up to one long reply before frames
/// already found. The demodulator says how far back a new frame can still start; frames
/// before that point go out, sorted by their start.
struct PendingFrames {
    private var frames: [(position: Int, frame: Frame, recovered: Bool)] = []

    init() {
        frames.reserveCapacity(64)
    }

    /// Queues `frame`, which starts at stream position `position`; `recovered`: it was found
    /// beneath a cancelled reply (kept so that taking it back can correct the statistics).
    mutating func append(_ frame: Frame, at position: Int, recovered: Bool = false) {
        // Keep the queue sorted; a new frame almost always belongs at the end.
        var index = frames.count
        while index > 0, frames[index - 1].position > position { index -= 1 }
        frames.insert((position, frame, recovered), at: index)
    }

    /// Takes back the queued frame with `bits` starting at `position`, and returns it and
    /// whether it was recovered from beneath another reply (nil when it was already emitted).
    mutating func remove(_ bits: ModeSBits, at position: Int) -> (frame: Frame, recovered: Bool)? {
        guard let index = frames.firstIndex(where: { $0.position == position && $0.frame.bits == bits }) else {
            return nil
        }
        let taken = frames.remove(at: index)
        return (taken.frame, taken.recovered)
    }

    /// Emits, in order, every queued frame that starts before `position`.
    mutating func release(before position: Int, emit: (Frame) -> Void) {
        var count = 0
        while count < frames.count, frames[count].position < position {
            emit(frames[count].frame)
            count += 1
        }
        if count > 0 { frames.removeFirst(count) }
    }
}
