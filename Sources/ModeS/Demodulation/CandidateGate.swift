/// A cheap test, run at every sample, of whether a reply could start there. Only samples
/// that pass it get the full preamble scoring, so it must be fast and must rarely reject a
/// real reply; false alarms only cost time.
///
/// Each sample rate has its own gate (`Gate2400`, `Gate2000`) because which samples surely
/// hold a preamble pulse, and which surely hold none, depends on the samples per chip.
protocol CandidateGate {
    /// Whether the samples at `m` may start a preamble. `threshold` is the required
    /// (6 × sum of the pulse samples − 4 × sum of the quiet samples), i.e. 24 × the
    /// required (mean pulse − mean quiet) magnitude difference.
    static func passes(_ m: UnsafePointer<UInt16>, threshold: Int32) -> Bool
}
