import ModeS
import Support
import Testing

/// The text helpers every later stage shares: fixed-point numbers and the one trim.
@Suite struct TextTests {
    @Test func decimalTextRoundsHalfAwayFromZeroWithExactlyThePlacesAsked() {
        #expect(DecimalText.fixed(1.2345678, places: 7) == "1.2345678")
        #expect(DecimalText.fixed(-0.5, places: 1) == "-0.5")
        #expect(DecimalText.fixed(-0.00001, places: 2) == "0.00")
        #expect(DecimalText.fixed(35000, places: 0) == "35000")
        #expect(DecimalText.fixed(4.4, places: 6) == "4.400000")
        #expect(DecimalText.fixed(2.25, places: 1) == "2.3")
        #expect(DecimalText.fixed(-2.25, places: 1) == "-2.3")
        #expect(DecimalText.fixed(0.05, places: 0) == "0")
        #expect(DecimalText.fixed(999.96, places: 1) == "1000.0")
        #expect(DecimalText.fixed(51.04999999999999, places: 4) == "51.0500")
    }

    @Test func decimalTextKeepsNumbersBeyondItsArithmeticAndNamesNonFiniteOnesNull() {
        // Past 9e15 a double has no fraction left to write, and the integer arithmetic would
        // overflow: the number is written as Swift writes it.
        #expect(DecimalText.fixed(1e20, places: 2) == "1e+20")
        #expect(DecimalText.fixed(-1e300, places: 0) == "-1e+300")
        #expect(DecimalText.fixed(.infinity, places: 1) == "null")
        #expect(DecimalText.fixed(.nan, places: 1) == "null")
    }

    @Test func trimmingWhitespaceRemovesEveryKindOfWhiteSpaceAtBothEndsOnly() {
        #expect(" \t KLM1023 \r\n".trimmingWhitespace() == "KLM1023")
        #expect("\u{00A0}\u{2003}a b\u{3000}".trimmingWhitespace() == "a b")
        #expect("a \t b".trimmingWhitespace() == "a \t b")
        #expect(" \n\t ".trimmingWhitespace().isEmpty)
        #expect("".trimmingWhitespace().isEmpty)
        let line: Substring = "  *8D4840D6202CC371C32CE0576098; "
        #expect(line.trimmingWhitespace() == "*8D4840D6202CC371C32CE0576098;")
    }
}
