/// Sums of a vector's lanes added in pairs, halves first: three dependent additions for
/// eight lanes instead of the seven of `sum()`, which adds the lanes one after another.
/// The hot sums (preamble scores, the canceller's and the channel fit's projections) each
/// end in one of these, and the one-by-one chain made every one of them wait. The result
/// may differ from `sum()` in the last place, far below any decision's margin.
extension SIMD8 where Scalar: BinaryFloatingPoint {
    /// The sum of the eight lanes, added in pairs.
    @inline(__always)
    var pairwiseSum: Scalar { (lowHalf + highHalf).pairwiseSum }
}

extension SIMD4 where Scalar: BinaryFloatingPoint {
    /// The sum of the four lanes, added in pairs.
    @inline(__always)
    var pairwiseSum: Scalar {
        let halves = lowHalf + highHalf
        return halves[0] + halves[1]
    }
}
