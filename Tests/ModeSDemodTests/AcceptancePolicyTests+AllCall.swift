import Simulator
import TestSupport
import Testing

@testable import ModeS
@testable import ModeSDemod

/// The tests of all-call replies (DF11): the all-call test and the tests of the
/// interrogator code, which no parity checks.
extension AcceptancePolicyTests {
    /// The code-0 reading test: a station's code falls when a slice of the same reply read code 0;
    /// code 0 stands whatever was read before it.
    @Test func aStationsCodeFallsToACodeZeroReadingNearby() {
        #expect(!policy.stationCodeStands(2, codeZeroNearby: true))
        #expect(policy.stationCodeStands(2, codeZeroNearby: false))
        #expect(policy.stationCodeStands(0, codeZeroNearby: true))
    }

    /// The feedback-code test: a one-bit code from feedback whose bit the plain decisions found
    /// weak needs the channel fit; other codes and other slicers are not asked, nor is the plain
    /// slice measured for them.
    @Test func aOneBitCodeFromFeedbackThatThePlainSliceDoubtedNeedsTheFit() {
        let smear = SliceAttempt(rank: 0, slicer: .smearFeedback)
        let amplitude = SliceAttempt(rank: 0, slicer: .amplitudeFeedback)
        #expect(!policy.feedbackCodeStands(8, attempt: smear, plainWeak: { 8 | 32 }, fitAgrees: false))
        #expect(!policy.feedbackCodeStands(8, attempt: amplitude, plainWeak: { 8 }, fitAgrees: false))
        #expect(policy.feedbackCodeStands(8, attempt: smear, plainWeak: { 8 }, fitAgrees: true))
        #expect(policy.feedbackCodeStands(8, attempt: smear, plainWeak: { 32 }, fitAgrees: false))
        var measured = 0
        let counting = { () -> Int in
            measured += 1
            return 0x7F
        }
        #expect(policy.feedbackCodeStands(0x0A, attempt: smear, plainWeak: counting, fitAgrees: false))
        #expect(policy.feedbackCodeStands(0, attempt: smear, plainWeak: counting, fitAgrees: false))
        #expect(
            policy.feedbackCodeStands(
                8, attempt: SliceAttempt(rank: 0, slicer: .plain), plainWeak: counting,
                fitAgrees: false))
        #expect(
            policy.feedbackCodeStands(
                8, attempt: SliceAttempt(rank: 0, slicer: .channelFit),
                plainWeak: counting, fitAgrees: false))
        #expect(measured == 0)
    }

    @Test func anAllCallIsBelievedOnlyWithoutInterferenceAndWithPlainAgreement() {
        let plainAttempt = SliceAttempt(rank: 0, slicer: .plain)
        let coded = allCall(address: 0x4840D6, code: 0x15)
        let clean = allCall(address: 0x4840D6, code: 0)
        #expect(
            policy.acceptsAllCall(
                clean, attempt: plainAttempt, overlapped: false, followedClosely: false,
                codeBelievable: false, plainAgrees: false))
        #expect(
            !policy.acceptsAllCall(
                clean, attempt: plainAttempt, overlapped: true, followedClosely: false,
                codeBelievable: true, plainAgrees: true))
        #expect(
            !policy.acceptsAllCall(
                clean, attempt: plainAttempt, overlapped: false, followedClosely: true,
                codeBelievable: true, plainAgrees: true))
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: plainAttempt, overlapped: false, followedClosely: false,
                codeBelievable: false, plainAgrees: true))
        #expect(
            policy.acceptsAllCall(
                coded, attempt: plainAttempt, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: false))
    }

    /// Feedback decisions are believed at the best phase where the plain decisions agree, or
    /// below six floors where the channel fit decides the same code.
    @Test func feedbackDecisionsNeedThePlainDecisionsOrTheChannelFit() {
        let coded = allCall(address: 0x4840D6, code: 0x15)
        let clean = allCall(address: 0x4840D6, code: 0)
        let feedbackBest = SliceAttempt(rank: 0, slicer: .smearFeedback)
        let feedbackSecond = SliceAttempt(rank: 1, slicer: .amplitudeFeedback)
        #expect(
            policy.acceptsAllCall(
                clean, attempt: feedbackBest, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true))
        #expect(
            !policy.acceptsAllCall(
                clean, attempt: feedbackBest, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: false))
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: feedbackSecond, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true))
        // Below six floors the channel fit deciding the same code stands in for the best
        // phase and the plain decisions; not for interference, nor for loud empty chips.
        #expect(
            policy.acceptsAllCall(
                coded, attempt: feedbackSecond, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: false, fitAgreesBelowSixFloors: true))
        #expect(
            policy.acceptsAllCall(
                clean, attempt: feedbackBest, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: false, fitAgreesBelowSixFloors: true))
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: feedbackSecond, overlapped: true, followedClosely: false,
                codeBelievable: true, plainAgrees: false, fitAgreesBelowSixFloors: true))
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: feedbackSecond, overlapped: false, followedClosely: false,
                codeBelievable: false, plainAgrees: false, fitAgreesBelowSixFloors: true))
    }

    /// Near the noise a station's code from feedback decisions needs the channel fit, and the
    /// fit is asked only where the plain decisions do not settle the code.
    @Test func nearTheNoiseFeedbackCodesNeedTheChannelFit() {
        let plainAttempt = SliceAttempt(rank: 0, slicer: .plain)
        let coded = allCall(address: 0x4840D6, code: 0x15)
        let clean = allCall(address: 0x4840D6, code: 0)
        let feedbackBest = SliceAttempt(rank: 0, slicer: .smearFeedback)
        let feedbackSecond = SliceAttempt(rank: 1, slicer: .amplitudeFeedback)
        // Near the noise a station's code from feedback needs the fit whatever the plain
        // decisions say; code 0 does not.
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: feedbackBest, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitAgreesBelowSixFloors: false,
                clearOfNoise: false))
        #expect(
            policy.acceptsAllCall(
                coded, attempt: feedbackBest, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitAgreesBelowSixFloors: true,
                clearOfNoise: false))
        #expect(
            policy.acceptsAllCall(
                clean, attempt: feedbackBest, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitAgreesBelowSixFloors: false,
                clearOfNoise: false))
        #expect(
            policy.acceptsAllCall(
                coded, attempt: plainAttempt, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitAgreesBelowSixFloors: false,
                clearOfNoise: false))
        // The fit is asked only where the plain decisions do not settle it (outside #expect,
        // which evaluates each argument to show it).
        var fitAsked = false
        let settled = policy.acceptsAllCall(
            clean, attempt: feedbackBest, overlapped: false, followedClosely: false,
            codeBelievable: true, plainAgrees: true,
            fitAgreesBelowSixFloors: {
                fitAsked = true
                return false
            }())
        #expect(settled && !fitAsked)
        // Other formats are not all-calls: the rule does not apply.
        #expect(
            policy.acceptsAllCall(
                squitter, attempt: feedbackSecond, overlapped: true, followedClosely: true,
                codeBelievable: false, plainAgrees: false))
    }

    @Test func aCodeTheAircraftAnsweredWithBeforeIsDoubtedLess() {
        let coded = allCall(address: 0x4840D6, code: 0x15)
        let clean = allCall(address: 0x4840D6, code: 0)
        let plain = SliceAttempt(rank: 0, slicer: .plain)
        let fit = SliceAttempt(rank: 0, slicer: .channelFit)
        let feedback = SliceAttempt(rank: 0, slicer: .smearFeedback)
        func accepts(
            _ bits: ModeSBits, _ attempt: SliceAttempt, overlapped: Bool = false,
            followedClosely: Bool = false, codeBelievable: Bool = true,
            underCancelledFrame: Bool = false, clearOfNoise: Bool = true,
            _ ownCode: AddressCodes.Standing
        ) -> Bool {
            policy.acceptsAllCall(
                bits, attempt: attempt, overlapped: overlapped, followedClosely: followedClosely,
                codeBelievable: codeBelievable, plainAgrees: true, fitsCleanly: true,
                codeUnderCancelledFrame: underCancelledFrame, clearOfNoise: clearOfNoise,
                ownCode: ownCode)
        }
        // Another reply across the code: no doubt for a code heard repeatedly, still one for
        // a code heard once, and always for code 0 (which every aircraft answers with).
        for interference in [(true, false, false), (false, true, false), (false, false, true)] {
            let (overlapped, followed, under) = interference
            #expect(
                !accepts(
                    coded, plain, overlapped: overlapped, followedClosely: followed,
                    underCancelledFrame: under, .unknown))
            #expect(
                !accepts(
                    coded, plain, overlapped: overlapped, followedClosely: followed,
                    underCancelledFrame: under, .once))
            #expect(
                accepts(
                    coded, plain, overlapped: overlapped, followedClosely: followed,
                    underCancelledFrame: under, .repeated))
        }
        #expect(!accepts(clean, plain, overlapped: true, .repeated))
        #expect(accepts(coded, fit, followedClosely: true, .repeated))
        #expect(!accepts(coded, fit, followedClosely: true, .once))
        // Loud empty chips: no doubt near the noise for a code heard at all; still one above it.
        #expect(!accepts(coded, plain, codeBelievable: false, clearOfNoise: false, .unknown))
        #expect(accepts(coded, plain, codeBelievable: false, clearOfNoise: false, .once))
        #expect(!accepts(coded, plain, codeBelievable: false, clearOfNoise: true, .repeated))
        // Feedback decisions near the noise without the fit's word.
        #expect(!accepts(coded, feedback, clearOfNoise: false, .unknown))
        #expect(accepts(coded, feedback, clearOfNoise: false, .once))
    }

    /// For a code the aircraft answered with before, the unambiguous-code test waives an
    /// overstated bit and weak bits near the noise without the fit, not a weak bit whose
    /// turning gives another code in use.
    @Test func aCodeTheAircraftAnsweredWithBeforeIsNotAmbiguousForNoise() {
        let believed: (Int) -> Bool = { [0, 0x15, 0x05].contains($0) }
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 0, overstated: true, clearOfNoise: true,
                ownCode: .unknown, believed: believed))
        #expect(
            policy.codeUnambiguous(
                0x15, weakBits: 0, overstated: true, clearOfNoise: true,
                ownCode: .once, believed: believed))
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 0x02, overstated: false, clearOfNoise: false,
                ownCode: .unknown, believed: believed))
        #expect(
            policy.codeUnambiguous(
                0x15, weakBits: 0x02, overstated: false, clearOfNoise: false,
                ownCode: .once, believed: believed))
        // A weak bit whose turning gives another code in use stays a doubt.
        #expect(
            !policy.codeUnambiguous(
                0x15, weakBits: 0x10, overstated: false, clearOfNoise: false,
                ownCode: .repeated, believed: believed))
    }

    @Test func theChannelFitCanVouchForAStationsCodeWithLoudEmptyChips() {
        let coded = allCall(address: 0x4840D6, code: 0x15)
        let plainAttempt = SliceAttempt(rank: 0, slicer: .plain)
        var asked = 0
        func confirmed(_ answer: Bool) -> Bool {
            asked += 1
            return answer
        }
        // (Outside #expect, which would evaluate the measurement itself.)
        let vouched = policy.acceptsAllCall(
            coded, attempt: plainAttempt, overlapped: false, followedClosely: false,
            codeBelievable: false, plainAgrees: true,
            confirmedByChannelFit: confirmed(true))
        let notVouched = policy.acceptsAllCall(
            coded, attempt: plainAttempt, overlapped: false, followedClosely: false,
            codeBelievable: false, plainAgrees: true,
            confirmedByChannelFit: confirmed(false))
        #expect(vouched)
        #expect(!notVouched)
        #expect(asked == 2)
        // Feedback decisions at the best phase, with the plain ones agreeing, can be vouched for.
        let feedback = policy.acceptsAllCall(
            coded, attempt: SliceAttempt(rank: 0, slicer: .smearFeedback),
            overlapped: false, followedClosely: false, codeBelievable: false,
            plainAgrees: true, confirmedByChannelFit: confirmed(true))
        #expect(feedback)
        #expect(asked == 3)
        // Not those at another phase, nor past an overlap; and only asked when the code is in doubt.
        let secondPhase = policy.acceptsAllCall(
            coded, attempt: SliceAttempt(rank: 1, slicer: .smearFeedback),
            overlapped: false, followedClosely: false, codeBelievable: false,
            plainAgrees: true, confirmedByChannelFit: confirmed(true))
        let overlapped = policy.acceptsAllCall(
            coded, attempt: plainAttempt, overlapped: true, followedClosely: false,
            codeBelievable: false, plainAgrees: true,
            confirmedByChannelFit: confirmed(true))
        let believable = policy.acceptsAllCall(
            coded, attempt: plainAttempt, overlapped: false, followedClosely: false,
            codeBelievable: true, plainAgrees: true,
            confirmedByChannelFit: confirmed(false))
        #expect(!secondPhase)
        #expect(!overlapped)
        #expect(believable)
        #expect(asked == 4)
    }

    @Test func theFitAgreesWhenItDecidesTheSameCode() {
        let coded = allCall(address: 0x4840D6, code: 0x15)
        #expect(AcceptancePolicy.decidesSameCode(coded, as: coded))
        // A bit the CRC already checked, turned by the fit, leaves its word on the code.
        var addressTurned = coded
        addressTurned.flipBit(20)
        #expect(AcceptancePolicy.decidesSameCode(addressTurned, as: coded))
        // Any code bit turned, the first or the last, is a disagreement.
        for number in [AcceptancePolicy.firstCodeBit, 56] {
            var codeTurned = coded
            codeTurned.flipBit(number)
            #expect(!AcceptancePolicy.decidesSameCode(codeTurned, as: coded))
        }
        // No reply found, or one of another length, agrees with nothing.
        #expect(!AcceptancePolicy.decidesSameCode(nil, as: coded))
        #expect(!AcceptancePolicy.decidesSameCode(squitter, as: coded))
    }

    @Test func onlyNonZeroInterrogatorCodesNeedVouching() {
        #expect(policy.codeToVouchFor(allCall(address: 0x4840D6, code: 0x15)) == 0x15)
        #expect(policy.codeToVouchFor(allCall(address: 0x4840D6, code: 0)) == nil)
        #expect(policy.codeToVouchFor(squitter) == nil)
        var options = StreamingDemodulator.Options()
        options.confirmInterrogatorCodes = false
        #expect(AcceptancePolicy(options: options).codeToVouchFor(allCall(address: 0x4840D6, code: 0x15)) == nil)
    }

    @Test func aCodeOfAKnownAircraftNeedsFirmBitsAndCanBeSwitchedOff() {
        let plain = SliceAttempt(rank: 0, slicer: .plain)
        #expect(policy.codeOfKnownAddressBelieved(attempt: plain, addressKnown: true, codeFirm: true))
        #expect(!policy.codeOfKnownAddressBelieved(attempt: plain, addressKnown: false, codeFirm: true))
        #expect(!policy.codeOfKnownAddressBelieved(attempt: plain, addressKnown: true, codeFirm: false))
        // The channel fit's codes always need a second aircraft.
        #expect(
            !policy.codeOfKnownAddressBelieved(
                attempt: SliceAttempt(rank: 0, slicer: .channelFit),
                addressKnown: true, codeFirm: true))
        var options = StreamingDemodulator.Options()
        options.knownAddressInterrogatorCodes = false
        #expect(
            !AcceptancePolicy(options: options).codeOfKnownAddressBelieved(
                attempt: plain, addressKnown: true,
                codeFirm: true))
    }

    @Test func theChannelFitsAllCallStandsOnItsModel() {
        let fitted = SliceAttempt(rank: 0, slicer: .channelFit)
        let coded = allCall(address: 0x4840D6, code: 0x15)
        // Usable (unlike the sequence's), judged by the model rather than the magnitudes.
        #expect(policy.usable(coded, from: fitted))
        #expect(!policy.usable(coded, from: SliceAttempt(rank: 0, slicer: .sequence)))
        #expect(
            policy.acceptsAllCall(
                coded, attempt: fitted, overlapped: true, followedClosely: false,
                codeBelievable: false, plainAgrees: false, fitsCleanly: true))
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: fitted, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitsCleanly: false))
        #expect(
            !policy.acceptsAllCall(
                coded, attempt: fitted, overlapped: false, followedClosely: true,
                codeBelievable: true, plainAgrees: true, fitsCleanly: true))
    }

    @Test func theSquitterCodeNeedsLessThanAStationsCode() {
        let squitterCode = allCall(address: 0x4840D6, code: 0)
        let stationCode = allCall(address: 0x4840D6, code: 0x15)
        // From the channel fit, code bits that are not near-even are enough for code 0 ...
        let fitted = SliceAttempt(rank: 0, slicer: .channelFit)
        #expect(
            policy.acceptsAllCall(
                squitterCode, attempt: fitted, overlapped: false, followedClosely: false,
                codeBelievable: false, plainAgrees: false, fitsCleanly: false, codeDecided: true))
        #expect(
            !policy.acceptsAllCall(
                squitterCode, attempt: fitted, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitsCleanly: true, codeDecided: false))
        #expect(
            !policy.acceptsAllCall(
                squitterCode, attempt: fitted, overlapped: false, followedClosely: true,
                codeBelievable: true, plainAgrees: true, fitsCleanly: true, codeDecided: true))
        // ... but not for a station's code, which must fit cleanly.
        #expect(
            !policy.acceptsAllCall(
                stationCode, attempt: fitted, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true, fitsCleanly: false, codeDecided: true))
        // Feedback decisions at the second-best phase: code 0 where the plain decisions agree.
        let second = SliceAttempt(rank: 1, slicer: .amplitudeFeedback)
        #expect(
            policy.acceptsAllCall(
                squitterCode, attempt: second, overlapped: false, followedClosely: false,
                codeBelievable: false, plainAgrees: true))
        #expect(
            !policy.acceptsAllCall(
                squitterCode, attempt: second, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: false))
        #expect(
            !policy.acceptsAllCall(
                stationCode, attempt: second, overlapped: false, followedClosely: false,
                codeBelievable: true, plainAgrees: true))
        #expect(
            policy.acceptsAllCall(
                stationCode, attempt: SliceAttempt(rank: 0, slicer: .amplitudeFeedback),
                overlapped: false, followedClosely: false, codeBelievable: true, plainAgrees: true))
    }

    @Test func codeBitsMustEachScoreHalfACleanBit() {
        let typical: Int32 = 1000
        func firm(_ weak: [Int], score: Int32) -> Bool {
            var scores = [Int32](repeating: typical, count: 56)
            for number in weak { scores[number - 1] = score }
            return scores.withUnsafeBufferPointer { gate.codeFirm($0.baseAddress!, count: 56, typicalScore: typical) }
        }
        #expect(firm([], score: 0))
        #expect(firm([49, 10], score: 0))  // outside the code's 7 bits
        #expect(firm([50, 56], score: 500))  // exactly half
        #expect(!firm([50], score: 499))
        #expect(!firm([56], score: 100))
    }
}
