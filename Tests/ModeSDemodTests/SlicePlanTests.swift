import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

@Suite(.computeBound) struct SliceAttemptTests {
    /// Every attempt of `plan`, in order.
    func attempts(_ plan: SlicePlan) -> [SliceAttempt] {
        (0..<plan.count).map { plan[$0] }
    }

    func plan(
        plainRanks: Int, feedback: Bool = true, sequence: Bool = true, dataWindow: Bool = false,
        worthwhile: Bool = true, sequencePhases: Int = 1
    ) -> SlicePlan {
        SlicePlan(
            plainRanks: plainRanks, feedbackRetry: feedback, sequenceRetry: sequence,
            looksLikeOtherReplysData: dataWindow, sequenceWorthwhile: worthwhile, sequencePhases: sequencePhases)
    }

    @Test func atTwoMegasamplesTheSequenceIsTriedAtTheBestTwoPhases() {
        #expect(SlicePlan.sequencePhases(sampleRate: .twoMega) == 2)
        #expect(SlicePlan.sequencePhases(sampleRate: .twoPointFourMega) == 1)
        #expect(
            attempts(plan(plainRanks: 3, sequencePhases: 2)).suffix(3) == [
                SliceAttempt(rank: 1, slicer: .smearFeedback),
                SliceAttempt(rank: 0, slicer: .sequence),
                SliceAttempt(rank: 1, slicer: .sequence)
            ])
        // Only where feedback ran at two phases.
        #expect(
            attempts(plan(plainRanks: 1, sequencePhases: 2)).filter { $0.slicer == .sequence }
                == [SliceAttempt(rank: 0, slicer: .sequence)])
        #expect(plan(plainRanks: 3, worthwhile: false, sequencePhases: 2).count == 7)
    }

    @Test func threePhasesGetPlainSlicesThenFeedbackAtTheBestTwoThenTheSequence() {
        #expect(
            attempts(plan(plainRanks: 3)) == [
                SliceAttempt(rank: 0, slicer: .plain),
                SliceAttempt(rank: 1, slicer: .plain),
                SliceAttempt(rank: 2, slicer: .plain),
                SliceAttempt(rank: 0, slicer: .amplitudeFeedback),
                SliceAttempt(rank: 0, slicer: .smearFeedback),
                SliceAttempt(rank: 1, slicer: .amplitudeFeedback),
                SliceAttempt(rank: 1, slicer: .smearFeedback),
                SliceAttempt(rank: 0, slicer: .sequence)
            ])
    }

    @Test func oneGoodPhaseGetsFeedbackOnlyThere() {
        #expect(
            attempts(plan(plainRanks: 1)) == [
                SliceAttempt(rank: 0, slicer: .plain),
                SliceAttempt(rank: 0, slicer: .amplitudeFeedback),
                SliceAttempt(rank: 0, slicer: .smearFeedback),
                SliceAttempt(rank: 0, slicer: .sequence)
            ])
    }

    @Test func withoutFeedbackThereIsNoSequenceEither() {
        let plain = plan(plainRanks: 2, feedback: false)
        #expect(attempts(plain) == [SliceAttempt(rank: 0, slicer: .plain), SliceAttempt(rank: 1, slicer: .plain)])
    }

    @Test func anotherReplysDataWindowKeepsOnlyThePlainSlices() {
        let suspicious = plan(plainRanks: 2, dataWindow: true)
        #expect(attempts(suspicious).allSatisfy { $0.slicer == .plain })
        #expect(suspicious.count == 2)
    }

    @Test func theSequenceIsLeftOutWhenNotWorthwhileOrNotWanted() {
        #expect(!attempts(plan(plainRanks: 2, worthwhile: false)).contains { $0.slicer == .sequence })
        #expect(!attempts(plan(plainRanks: 2, sequence: false)).contains { $0.slicer == .sequence })
        #expect(plan(plainRanks: 2, sequence: false).count == 6)
    }

    @Test func furtherPhasesMustFitWithinAQuarterOfTheBest() {
        let scores: [Int32] = [100, 80, 74, 90]
        // 80 is within a quarter of 100, 74 is not: the list stops there.
        #expect(SlicePlan.plainRanks(count: 4, maximum: 4, score: { scores[$0] }) == 2)
        let close: [Int32] = [100, 99, 98, 97]
        #expect(SlicePlan.plainRanks(count: 4, maximum: 3, score: { close[$0] }) == 3)
        #expect(SlicePlan.plainRanks(count: 2, maximum: 3, score: { close[$0] }) == 2)
        #expect(SlicePlan.plainRanks(count: 1, maximum: 3, score: { close[$0] }) == 1)
        let exact: [Int32] = [100, 75]
        #expect(SlicePlan.plainRanks(count: 2, maximum: 3, score: { exact[$0] }) == 2)
    }

    @Test func theSequenceIsForWeakRepliesOnlyAt2400() {
        #expect(SlicePlan.sequenceWorthwhile(sampleRate: .twoPointFourMega, level: 39, floor: 10))
        #expect(!SlicePlan.sequenceWorthwhile(sampleRate: .twoPointFourMega, level: 40, floor: 10))
        #expect(SlicePlan.sequenceWorthwhile(sampleRate: .twoMega, level: 400, floor: 10))
    }

    @Test func aLouderSignalAnywhereInTheWindowIsSeen() {
        // 21 samples: two whole blocks of eight and a tail of five.
        var window = [UInt16](repeating: 30, count: 32)
        let floor: UInt32 = 10
        func peak(_ samples: [UInt16], span: Int = 21) -> Int64 {
            samples.withUnsafeBufferPointer { SlicePlan.windowPeak($0.baseAddress!, span: span, floor: floor) }
        }
        #expect(peak(window) == 20)
        for index in [0, 9, 20] {
            var louder = window
            louder[index] = 90
            #expect(peak(louder) == 80, "a peak at sample \(index)")
        }
        // Past the span does not count.
        window[21] = 1000
        #expect(peak(window) == 20)
    }

    @Test func aMuchLouderSignalInTheWindowStopsTheFitAndItsRestarts() {
        // 8 times the level at 2.4 MS/s, 10 times at 2.0 MS/s.
        #expect(SlicePlan.fitWorthwhile(peak: 159, level: 20, sampleRate: .twoPointFourMega))
        #expect(!SlicePlan.fitWorthwhile(peak: 160, level: 20, sampleRate: .twoPointFourMega))
        #expect(SlicePlan.fitWorthwhile(peak: 199, level: 20, sampleRate: .twoMega))
        #expect(!SlicePlan.fitWorthwhile(peak: 200, level: 20, sampleRate: .twoMega))
        // Later starts: 4 times at 2.4 MS/s, no limit at 2.0 MS/s.
        #expect(SlicePlan.restartWorthwhile(peak: 79, level: 20, sampleRate: .twoPointFourMega))
        #expect(!SlicePlan.restartWorthwhile(peak: 80, level: 20, sampleRate: .twoPointFourMega))
        #expect(SlicePlan.restartWorthwhile(peak: 1000, level: 20, sampleRate: .twoMega))
    }

    @Test func eachSlicerGetsItsFeedbackArgument() {
        #expect(SliceAttempt(rank: 0, slicer: .plain).feedback(level: 300) == 0)
        #expect(SliceAttempt(rank: 1, slicer: .amplitudeFeedback).feedback(level: 300) == 300)
        #expect(SliceAttempt(rank: 0, slicer: .smearFeedback).feedback(level: 300) == BitSlicer.smearFeedback)
        #expect(SliceAttempt(rank: 0, slicer: .sequence).feedback(level: 300) == 300)
        #expect(!SliceAttempt(rank: 0, slicer: .plain).usesFeedback)
        #expect(SliceAttempt(rank: 0, slicer: .sequence).usesFeedback)
    }
}
