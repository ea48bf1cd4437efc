import ModeS
/// A cheap test, run at every sample, of whether a reply could start there. Only samples
/// that pass it get the full preamble scoring, so it must be fast and must rarely reject a
/// real reply; false alarms only cost time.
///
/// Each sample rate has its own gate (`Gate2400`, `Gate2000`) because which samples surely
/// hold a preamble pulse, and which surely hold none, depends on the samples per chip.
/// Both compare the mean of samples that surely hold pulse energy with the mean of samples
/// that are surely quiet: `6 × sum(4 pulse samples) − 4 × sum(6 quiet samples)` is
/// 24 × (mean pulse − mean quiet), and the gate passes when it exceeds `threshold`.
protocol CandidateGate {
    /// Whether the samples at `m` may start a preamble.
    static func passes(_ m: UnsafePointer<UInt16>, threshold: Int32) -> Bool
    /// Whether any of the eight starts `m`, `m + 1`, ..., `m + 7` passes, tested at once
    /// (SIMD). Most of the stream is noise where all eight fail, so the scan mostly
    /// advances eight samples per test.
    static func anyOfEightPasses(_ m: UnsafePointer<UInt16>, threshold: Int32) -> Bool
}

/// Eight consecutive magnitudes starting at `m + offset`, widened for arithmetic.
@inline(__always)
func lanes(_ m: UnsafePointer<UInt16>, _ offset: Int) -> SIMD8<Int32> {
    SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(m + offset).loadUnaligned(as: SIMD8<UInt16>.self))
}
