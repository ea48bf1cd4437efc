import ModeS

/// The candidate gate at 2.0 MS/s, where a chip is one sample.
///
/// A reply starts somewhere in [0, 1) sample after the candidate sample, so each preamble
/// pulse (chips 0, 2, 7, 9) fills one of samples (0, 1), (2, 3), (7, 8), (9, 10) at least
/// half; samples 4–6 (chips 4–6) and 11–13 (chips 11–13) are always quiet. The gate
/// compares the mean of the louder sample of each pulse pair with the mean of the quiet
/// samples.
enum Gate2000: CandidateGate {
    /// 3.5 µs is 7 samples: a reply starting within the sample after start 7 shadows this
    /// start; start 8 covers a reply the preamble detector places at its edge.
    static let shadowOffsets = (7, 8)

    @inline(__always)
    static func sums(_ m: UnsafePointer<UInt16>) -> (pulses: Int32, quiet: Int32) {
        let pulses =
            Int32(max(m[0], m[1])) + Int32(max(m[2], m[3])) + Int32(max(m[7], m[8]))
            + Int32(max(m[9], m[10]))
        let quiet = Int32(m[4]) + Int32(m[5]) + Int32(m[6]) + Int32(m[11]) + Int32(m[12]) + Int32(m[13])
        return (pulses, quiet)
    }

    @inline(__always)
    static func passingOfEight(_ m: UnsafePointer<UInt16>, _ limits: GateLimits) -> UInt8 {
        let pulses = largerOfPairs(m, 0) &+ largerOfPairs(m, 2) &+ largerOfPairs(m, 7) &+ largerOfPairs(m, 9)
        let quiet = lanes(m, 4) &+ lanes(m, 5) &+ lanes(m, 6) &+ lanes(m, 11) &+ lanes(m, 12) &+ lanes(m, 13)
        return limits.admittedLanes(pulses: pulses, quiet: quiet)
    }
}
