import ModeS

/// The candidate gate at 2.4 MS/s, where a chip lasts 1.2 samples.
///
/// For a reply starting anywhere in [0, 1) sample after the candidate sample, the four
/// preamble pulses (chips 0, 2, 7, 9) cover at least 0.4 of sample 0 or 1, of sample 3, of
/// sample 9, and of sample 11 or 12; samples 5–7 (chips 3–6) and 14–16 (chips 11–14) are
/// always quiet. Taking the larger of two neighbours for the first and last pulse lets one
/// test serve all five phases.
enum Gate2400: CandidateGate {
    /// 3.5 µs is 8.4 samples.
    static let shadowOffsets = (8, 9)

    @inline(__always)
    static func sums(_ m: UnsafePointer<UInt16>) -> (pulses: Int32, quiet: Int32) {
        let pulses = Int32(max(m[0], m[1])) + Int32(m[3]) + Int32(m[9]) + Int32(max(m[11], m[12]))
        let quiet = Int32(m[5]) + Int32(m[6]) + Int32(m[7]) + Int32(m[14]) + Int32(m[15]) + Int32(m[16])
        return (pulses, quiet)
    }

    @inline(__always)
    static func passingOfEight(_ m: UnsafePointer<UInt16>, _ limits: GateLimits) -> UInt8 {
        let pulses = largerOfPairs(m, 0) &+ lanes(m, 3) &+ lanes(m, 9) &+ largerOfPairs(m, 11)
        let quiet = lanes(m, 5) &+ lanes(m, 6) &+ lanes(m, 7) &+ lanes(m, 14) &+ lanes(m, 15) &+ lanes(m, 16)
        return limits.admittedLanes(pulses: pulses, quiet: quiet)
    }
}
