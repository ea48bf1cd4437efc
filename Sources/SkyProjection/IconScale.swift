import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How large a radar client should draw an aircraft: low aircraft are drawn larger, because
/// they are the ones an observer can actually see.
package enum IconScale {
    /// `min(2, max(4.7 − log10(h + 1), 0.7))` with `h` the aircraft's height in metres:
    /// 2 near the ground, 1 around 5,000 m, never below 0.7 however high.
    package static func scale(heightMetres h: Double) -> Double {
        min(2, max(4.7 - log10(max(h, 0) + 1), 0.7))
    }
}
