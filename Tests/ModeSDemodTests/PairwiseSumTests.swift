import TestSupport
import Testing

@testable import ModeSDemod

/// Lane sums added in pairs (`pairwiseSum`): the same total as one after another, up to the
/// rounding of a different order.
@Suite(.computeBound) struct PairwiseSumTests {
    @Test func eightAndFourLanesAddUp() {
        #expect(SIMD8<Float>(1, 2, 3, 4, 5, 6, 7, 8).pairwiseSum == 36)
        #expect(SIMD4<Double>(0.5, -1.5, 2.25, 4).pairwiseSum == 5.25)
        #expect(SIMD8<Float>(repeating: 0).pairwiseSum == 0)
    }

    /// The halves are added first: lanes 0 + 4, 1 + 5, … then those in pairs, so a large
    /// value and its negative in lanes 0 and 4 cancel before the small ones are added.
    @Test func theHalvesAreAddedFirst() {
        let lanes = SIMD8<Float>(1e8, 1, 1, 1, -1e8, 1, 1, 1)
        #expect(lanes.pairwiseSum == 6)
        #expect(lanes.sum() != 6)
    }
}
