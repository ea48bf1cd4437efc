import ModeS

/// The search beneath a frame once it is cancelled (`OverlapRecovery`), and the check of an
/// all-call reply's code against the reply that follows it (the follower check, `FollowerCheck`).
extension StreamingDemodulator {
    /// Cancels the frame `bits` found at `position` and examines the best starts of the
    /// residual (see `OverlapRecovery.buriedStarts`), recording what they give.
    func searchWithout(
        _ bits: ModeSBits, at position: Int, phase: Int, floor: UInt32,
        sides: OverlapRecovery.Sides
    ) {
        let span = kernels.span(bitCount: bits.bitCount)
        let windowStart = max(position - buffers.lookback, buffers.start)
        let windowEnd = min(position + span + kernels.replySpan, buffers.end + buffers.lookahead)
        let starts = recovery.buriedStarts(
            of: bits, at: position, phase: phase, floor: floor, sides: sides,
            windowStart: windowStart, windowEnd: windowEnd,
            raw: buffers.raw(at: windowStart),
            magnitudes: buffers.magnitudes + (windowStart - buffers.start),
            failedStarts: searchState.failedStarts)
        statistics.cancellations += 1
        searchState.cancelledFrame = position..<(position + span)
        defer { searchState.cancelledFrame = 0..<0 }
        for rank in 0..<starts.best.count {
            let start = starts.best.start(rank)
            let samples = starts.residual + (start - windowStart)
            guard case .frame(let frame, let phase) = examine(samples, at: start, floor: floor, inResidual: true)
            else { continue }
            record(frame, at: start, phase: phase, samples: samples, recovered: true)
        }
    }

    /// The follower check: checks the DF11 codes that a reply recorded at `position` bears on, with
    /// `FollowerCheck`: that of `bits` itself, against a recent reply that follows it closely
    /// (starting on its last code bits or right after them), and those of recent DF11s that
    /// `bits` follows closely, which are taken back from the queue when their code does not
    /// stand. Returns whether `bits` stands.
    func codesStandFollowers(_ bits: ModeSBits, at position: Int, phase: Int) -> Bool {
        var stands = true
        recent.visit { other, start, otherPhase in
            if bits.downlinkFormat == 11, followerCheck.follows(offset: start - position),
                !codeStands(bits, at: position, phase: phase, follower: other, at: start, phase: otherPhase)
            {
                stands = false
            }
            if other.downlinkFormat == 11, followerCheck.follows(offset: position - start),
                !codeStands(other, at: start, phase: otherPhase, follower: bits, at: position, phase: phase),
                let taken = pending.remove(other, at: start)
            {
                statistics.codesTurnedByFollower += 1
                tally(taken.frame, recovered: taken.recovered, by: -1)
            }
        }
        return stands
    }

    /// Whether the code of the DF11 `allCall` at `start` (phase `phase`) stands with the
    /// reply `follower` at `followerStart` cancelled (see `FollowerCheck`); true when the
    /// samples needed are no longer, or not yet, in the buffer.
    private func codeStands(
        _ allCall: ModeSBits, at start: Int, phase: Int, follower: ModeSBits,
        at followerStart: Int, phase followerPhase: Int
    ) -> Bool {
        let readable = buffers.end + buffers.lookahead - start
        guard start >= buffers.start, readable > 0 else { return true }
        return followerCheck.codeStands(
            allCall, phase: phase, follower: follower, offset: followerStart - start,
            followerPhase: followerPhase, raw: rawSamples(at: start),
            magnitudes: UnsafePointer(buffers.magnitudes + (start - buffers.start)),
            count: min(readable, FollowerCheck.window(kernels)))
    }
}
