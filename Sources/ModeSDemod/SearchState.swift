/// Where the search over the stream's starts stands relative to the frames it has just
/// found: the state that recovering overlapped replies needs from one start to the next.
///
/// Inside a frame just decoded its own data passes the gate at almost every sample, so the
/// gate asks more there; beneath a cancelled frame the starts that failed before it are
/// searched again; and at 2.4 MS/s a start's successor is scored once for both.
struct SearchState {
    /// The end of the last accepted frame: weakly checked frames are not taken from inside
    /// it (see `PreambleDetector.looksLikeDataWindow`).
    var insideFrameUntil = 0
    /// The gate threshold inside that frame: a reply starting there is only recoverable
    /// when it is clearly stronger than the frame it overlaps, whose own Manchester data
    /// otherwise passes the gate at almost every sample (the main cost in busy traffic).
    var insideGateThreshold: Int32 = 0
    /// While the residual of a cancelled frame is searched, the stream positions that frame
    /// spanned (empty otherwise).
    var cancelledFrame = 0..<0
    /// Recent starts whose preamble passed but whose bits did not: where a reply buried by
    /// a later, stronger frame began (see `OverlapRecovery.buriedStarts`).
    var failedStarts = RecentStarts()
    /// The preamble scores at the position after the last one examined in the signal (not a
    /// residual): at 2.4 MS/s each examination scores its successor to decide whether to
    /// defer to it, and that successor is usually the next position to pass the gate, so
    /// its scores are kept instead of computed twice. Valid within one `search` only.
    var successorPhases: (position: Int, floor: UInt32, phases: PreambleDetector.Phases)?
}
