import IQ
import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The carrier's frequency of the reply under fit, from pairs of samples whose surroundings
/// the model must predict alike, so that an echo at an opposite phase cannot bias it.
extension ChannelFitSlicer {
    /// The carrier's phase step per sample, from pairs of samples that the model must
    /// predict alike: where the envelope around two samples `lag` apart is the same over
    /// every tap's reach (and the samples sit alike on the chips), the channel adds the
    /// same to both, so iq[n]·conj(iq[n − lag]) has the phase lag·ω whatever echoes and
    /// filter do to the reply. (Phase steps between neighbouring samples inside pulses,
    /// `ReplyCanceller.coarseFrequency`, are thrown off by an echo at an opposite phase.)
    /// Short lags first, which are unambiguous, then longer ones for precision, each
    /// unwrapped around the previous estimate, starting from `coarse` (which may be off by
    /// a few tenths of a radian, but not by the ambiguity of the shortest lag).
    func carrierStep(
        _ iq: UnsafePointer<Float>, _ clipped: UnsafePointer<Bool>, span: Int,
        coarse: Double
    ) -> Double {
        // The shortest shift that keeps samples on the same chip alignment and can find
        // alike surroundings in Manchester data: one bit (two samples) at 2.0 MS/s; five
        // chips (six samples) at 2.4 MS/s.
        let base = kernels.sampleRate == .twoMega ? 2 : 6
        var omega = coarse
        // Lags of 1, 4 and 16 times the shortest.
        var lag = base
        while lag <= 16 * base, lag < span / 2 {
            defer { lag *= 4 }
            var (re, im) = pairSum(iq, clipped, span: span, lag: lag, minimumEnvelope: 0.5)
            // Samples on a pulse carry the most of the reply; but a reply at the converter's
            // rails has nearly all of those clipped, and then the echoes and edges between
            // its pulses (any sample the taps reach a pulse from) have to do. Only then: for
            // a weak reply those are mostly noise, and a lag without pairs is better skipped.
            if re == 0, im == 0, (0..<span).contains(where: { clipped[$0] }) {
                (re, im) = pairSum(iq, clipped, span: span, lag: lag, minimumEnvelope: 0)
            }
            guard re != 0 || im != 0 else { continue }
            let angle = atan2(im, re)
            var step = angle - omega * Double(lag)
            step -= 2 * .pi * (step / (2 * .pi)).rounded()
            omega += step / Double(lag)
        }
        return omega
    }

    /// The sum of iq[n]·conj(iq[n − lag]) over the unclipped pairs whose envelopes are
    /// alike over every tap's reach (see `carrierStep`), with an envelope of at least
    /// `minimumEnvelope` at n and a pulse somewhere within the taps' reach (which an
    /// envelope above 0 at n already means).
    func pairSum(
        _ iq: UnsafePointer<Float>, _ clipped: UnsafePointer<Bool>, span: Int, lag: Int,
        minimumEnvelope: Float
    ) -> (Double, Double) {
        let env = UnsafePointer(envelope + Self.padding)
        let reach = Self.reachLanes
        // An envelope above 0 at n already puts a pulse within reach.
        let checksReach = minimumEnvelope <= 0
        // Four pairs at a time: the tests for four samples are lanes of vector comparisons
        // (the reach of sample n + lane is lane `lane` of loads from n − postcursors + tap),
        // and the products are summed in four lanes. Which pairs take part is as good as
        // random, so it is computed rather than branched on, and the others add zero.
        // Floats: the angle of a sum of a few hundred products needs no more.
        var sumRe = SIMD4<Float>()
        var sumIm = SIMD4<Float>()
        var n = lag
        // One loop for each value of `checksReach`, so that the first pass (an envelope of
        // at least a half) does not test for pulses at all.
        @inline(__always) func sumPairs(checkingReach: Bool) {
            while n + 4 <= span {
                @inline(__always) func four(_ at: Int) -> SIMD4<Float> {
                    UnsafeRawPointer(env + at).loadUnaligned(as: SIMD4<Float>.self)
                }
                var refused =
                    clippedLanes(clipped + n) .| clippedLanes(clipped + n - lag)
                    .| (four(n) .< minimumEnvelope)
                var pulse = SIMDMask<SIMD4<Int32>>(repeating: false)
                for tap in 0..<Self.taps {
                    let here = four(n - Self.postcursors + tap)
                    refused .|= here .!= four(n - lag - Self.postcursors + tap)
                    if checkingReach { pulse .|= here .> 0 }
                }
                if checkingReach { refused .|= .!pulse }
                let now = UnsafeRawPointer(iq + 2 * n).loadUnaligned(as: SIMD8<Float>.self)
                let before = UnsafeRawPointer(iq + 2 * (n - lag)).loadUnaligned(as: SIMD8<Float>.self)
                let (i1, q1) = (now.evenHalf, now.oddHalf)
                let (i0, q0) = (before.evenHalf, before.oddHalf)
                sumRe += (i1 * i0 + q1 * q0).replacing(with: 0, where: refused)
                sumIm += (q1 * i0 - i1 * q0).replacing(with: 0, where: refused)
                n += 4
            }
        }
        if checksReach { sumPairs(checkingReach: true) } else { sumPairs(checkingReach: false) }
        var re = Double(sumRe.pairwiseSum)
        var im = Double(sumIm.pairwiseSum)
        for n in n..<span {
            let (i1, q1, i0, q0) = (
                Double(iq[2 * n]), Double(iq[2 * n + 1]),
                Double(iq[2 * (n - lag)]), Double(iq[2 * (n - lag) + 1])
            )
            let usable =
                Self.flag(clipped[n]) | Self.flag(clipped[n - lag]) | Self.flag(env[n] < minimumEnvelope)
                | Self.flag(!Self.alike(env, n, n - lag, reach: reach))
                | Self.flag(checksReach && !Self.reachesPulse(env, n, reach: reach)) == 0
            re += usable ? i1 * i0 + q1 * q0 : 0
            im += usable ? q1 * i0 - i1 * q0 : 0
        }
        return (re, im)
    }

    /// 1 for true, 0 for false: conditions combined without branches.
    @inline(__always)
    static func flag(_ condition: Bool) -> Int { condition ? 1 : 0 }

    /// The lanes of `alike`'s eight samples that lie within the taps' reach.
    static let reachLanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8(repeating: Int32(taps))

    /// Whether the envelope over every tap's reach is the same around samples `n` and `m`.
    /// Alike envelopes are the same sums of the same shares: equal exactly. The reach,
    /// `postcursors` before to `precursors` after, is the first `taps` of eight samples
    /// (`reach`: `reachLanes`) compared at once (the envelope is padded on both sides).
    @inline(__always)
    static func alike(_ env: UnsafePointer<Float>, _ n: Int, _ m: Int, reach: SIMDMask<SIMD8<Int32>>) -> Bool {
        let here = UnsafeRawPointer(env + n - postcursors).loadUnaligned(as: SIMD8<Float>.self)
        let there = UnsafeRawPointer(env + m - postcursors).loadUnaligned(as: SIMD8<Float>.self)
        return !any((here .!= there) .& reach)
    }

    /// Whether the envelope has a pulse anywhere within the taps' reach of sample `n`.
    @inline(__always)
    static func reachesPulse(_ env: UnsafePointer<Float>, _ n: Int, reach: SIMDMask<SIMD8<Int32>>) -> Bool {
        let here = UnsafeRawPointer(env + n - postcursors).loadUnaligned(as: SIMD8<Float>.self)
        return any((here .> 0) .& reach)
    }
}
