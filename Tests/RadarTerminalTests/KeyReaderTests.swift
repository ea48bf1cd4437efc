import ModeS
import Testing

@testable import RadarTerminal

@Suite struct KeyReaderTests {
    func keys(_ text: String) -> [RadarKey] {
        var reader = KeyReader()
        return reader.keys(from: Array(text.utf8))
    }

    @Test func arrowsInNormalAndApplicationMode() {
        #expect(keys("\u{1B}[D\u{1B}[C\u{1B}[A\u{1B}[B") == [.left, .right, .up, .down])
        #expect(keys("\u{1B}OD\u{1B}OC") == [.left, .right])
        // With a modifier (Ctrl+Right sends "ESC [ 1 ; 5 C").
        #expect(keys("\u{1B}[1;5C") == [.right])
    }

    @Test func charactersAndControlC() {
        #expect(keys("+-lfq") == [.character("+"), .character("-"), .character("l"), .character("f"), .character("q")])
        #expect(keys("\u{03}") == [.interrupt])
        // Other control bytes, Delete and multi-byte characters are no keys of the radar.
        #expect(keys("\u{01}\u{7F}é→q") == [.character("q")])
        // Other escape sequences (F5, Home) are skipped whole.
        #expect(keys("\u{1B}[15~\u{1B}[Hq") == [.character("q")])
    }

    @Test func sequencesSplitAcrossReads() {
        var reader = KeyReader()
        #expect(reader.keys(from: [0x1B]) == [])
        #expect(reader.keys(from: Array("[".utf8)) == [])
        #expect(reader.keys(from: Array("Cl".utf8)) == [.right, .character("l")])
        #expect(reader.keys(from: [0xE2, 0x86]) == [])
        #expect(reader.keys(from: [0x92, UInt8(ascii: "f")]) == [.character("f")])
    }

    @Test func aLoneEscapeIsIgnored() {
        var reader = KeyReader()
        #expect(reader.keys(from: [0x1B]) == [])
        #expect(reader.keys(from: Array("q".utf8)) == [.character("q")])
        // A sequence that never ends does not block the keys after it forever.
        #expect(reader.keys(from: [0x1B, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 20)) == [])
        #expect(reader.keys(from: Array("q".utf8)) == [.character("q")])
    }
}
