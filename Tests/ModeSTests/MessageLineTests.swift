import Testing

@testable import ModeS

@Suite struct MessageLineTests {
    let hex = "8D4840D6202CC371C32CE0576098"

    func parse(_ line: String) -> Result<MessageLine, MessageLine.Problem> {
        MessageLine.parse(line[...])
    }

    @Test func everyAcceptedForm() throws {
        #expect(try parse("*\(hex);").get().bits.hex == hex)
        #expect(try parse(hex.lowercased()).get().bits.hex == hex)
        #expect(try parse("  \(hex)\r").get().time == nil)
        let timestamped = try parse("@000000B71B00\(hex);").get()
        #expect(timestamped.time == 1.0)  // 0xB71B00 ticks of a 12 MHz clock
        let csv = try parse("1457996400,\"\(hex)\",\"4840D6\",4").get()
        #expect(csv.time == 1_457_996_400)
        #expect(csv.bits.hex == hex)
        let commB = try parse("\u{FEFF}1495353600,4D010D,A00015B7C26E1370AA00005DD34A").get()
        #expect(commB.bits.hex == "A00015B7C26E1370AA00005DD34A")
        #expect(try parse("*20001718029FCD;").get().bits.bitCount == 56)
    }

    @Test func malformedLinesSayWhy() {
        #expect(parse("") == .failure(.empty))
        #expect(parse("   ") == .failure(.empty))
        #expect(parse("*8D4840D6202CC371C32CE05760;") == .failure(.wrongLength(26)))
        #expect(parse("*8D4840D6202CC371C32CE05760ZZ;") == .failure(.notHex))
        #expect(parse("@12\(hex);") == .failure(.wrongLength(18)))
        #expect(parse("@ZZ0000000000\(hex);") == .failure(.notHex))
        #expect(parse("1457996400,hello") == .failure(.notHex))
    }
}
