import FeedProtocol
import Foundation
import Testing

@testable import RadarTerminal

/// Text from outside (callsigns, the daemon's messages) must reach the terminal as printable
/// characters only: a control sequence in a callsign would otherwise retitle the window,
/// clear the screen or reorder what is shown.
@Suite struct TerminalTextTests {
    /// Callsigns an attacker (or a broken source) might send.
    static let hostile = [
        "\u{1B}]0;owned\u{07}",  // set the window title
        "\u{1B}[2J\u{1B}[H",  // clear the screen, home the cursor
        "KLM\r1023",  // carriage return: overwrite the line
        "EVIL\u{202E}321",  // right-to-left override
        "A\u{2066}B\u{2069}C",  // bidi isolates
        "Z\u{200B}W\u{200D}J\u{FEFF}",  // zero-width space, joiner, byte-order mark
        "\u{9B}2J\u{90}x\u{9C}",  // C1 controls: CSI, DCS, ST
        "DEL\u{7F}\u{00}\u{08}",  // DEL, NUL, backspace
        "e\u{301}\u{20DD}",  // combining marks piled onto one column
        "LS\u{2028}PS\u{2029}"  // line and paragraph separators
    ]

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || (0x200B...0x200F).contains(value) || value == 0xFEFF
            || value == 0x2028 || value == 0x2029 || scalar.properties.generalCategory == .nonspacingMark
            || scalar.properties.generalCategory == .enclosingMark
    }

    @Test(arguments: TerminalTextTests.hostile)
    func everyControlAndFormatCharacterIsReplaced(text: String) {
        let shown = TerminalText.printable(text)
        #expect(!shown.unicodeScalars.contains(where: Self.isUnsafe), "\(shown.debugDescription)")
        // One character in, one character out: labels keep the width the layout measured.
        #expect(shown.count == text.count)
    }

    @Test func charactersTwoColumnsWideAreReplacedSoLabelsKeepTheirWidth() {
        #expect(TerminalText.printable("ＡＮＡ１２３") == "??????")
        #expect(TerminalText.printable("😀KLM") == "?KLM")
        #expect(TerminalText.printable("東京12") == "??12")
        #expect(TerminalText.printable("한국") == "??")
    }

    @Test func printableTextIsLeftAlone() {
        for text in ["KLM1023", "BAW 12", "Zürich", "ÅÉÎ", "→·│°"] {
            #expect(TerminalText.printable(text) == text)
        }
        #expect(TerminalText.printable("\u{1B}[2J") == "?[2J")
    }

    /// A frame whose callsigns and daemon message carry control sequences.
    func hostileModel() -> RadarModel {
        let aircraft = Self.hostile.enumerated().map { index, callsign in
            FeedAircraft(
                icao: String(format: "ab%04x", index), callsign: callsign, altitudeBaroFt: 10_000,
                groundKm: Double(index + 1), bearingDeg: Double(index * 30),
                x: 0.4 * sin(Double(index)), y: 0.4 * cos(Double(index)), rotationDeg: 0, scale: 1)
        }
        let frame = FeedFrame(
            seq: 1, time: 1000, source: "opensky\u{1B}[31m", headingDeg: 0, rangeKm: 50, aircraft: aircraft)
        return RadarModel(
            frame: frame, connected: true, socketPath: "/tmp/x.sock",
            serverError: "bad view \u{1B}]52;c;Zm9v\u{07}")
    }

    @Test func aFrameWithHostileCallsignsDrawsNoControlCharacters() {
        let renderer = RadarRenderer(settings: RadarSettings(), colour: false, sweep: false)
        let canvas = renderer.render(hostileModel(), time: 0, width: 110, height: 40)
        for row in 0..<canvas.height {
            let text = canvas.text(row: row)
            #expect(!text.unicodeScalars.contains(where: Self.isUnsafe), "row \(row): \(text.debugDescription)")
        }
        // The callsigns are still shown, with their controls replaced.
        #expect(canvas.find("?]0;owned?") != nil)
        #expect(canvas.find("bad view ?]52;c;Zm9v?") != nil)
    }

    @Test func colouredOutputHasOnlyItsOwnColourSequences() throws {
        let renderer = RadarRenderer(settings: RadarSettings(), colour: true, sweep: true)
        let canvas = renderer.render(hostileModel(), time: 0.5, width: 110, height: 40)
        let colourSequence = try Regex("\u{1B}\\[[0-9;]*m")
        for row in 0..<canvas.height {
            let line = RetroPalette.coloured(canvas, row: row).replacing(colourSequence, with: "")
            #expect(!line.unicodeScalars.contains(where: Self.isUnsafe), "row \(row): \(line.debugDescription)")
        }
    }
}
