/// Reduces text from outside (callsigns, the daemon's messages, socket paths) to characters
/// a terminal only prints.
///
/// A terminal acts on some characters instead of showing them: C0 and C1 controls (ESC
/// starts sequences that can clear the screen, set the window title or remap keys; CR moves
/// the cursor), DEL, and the Unicode format characters that reorder or hide text (the bidi
/// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, zero-width spaces
/// and joiners). A callsign is whatever a transponder or an API sent, so every character
/// drawn on the radar passes through here. Each character comes out as exactly one
/// character, so a label keeps the width the layout measured: a character that is not
/// printable becomes `replacement`, a combined character keeps only its printable base
/// (its combining marks would otherwise pile onto one column).
public enum TerminalText {
    /// What an unprintable character becomes.
    public static let replacement: Character = "?"

    /// `text` with every character made printable (see `printable(_:)` for one character).
    public static func printable(_ text: String) -> String {
        String(text.map { (character: Character) -> Character in printable(character) })
    }

    /// `character` itself when it is one printable scalar; its first scalar when that is
    /// printable and the rest are marks or format characters; else `replacement`.
    public static func printable(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        if let first = scalars.first, isPrintable(first) {
            return scalars.count == 1 ? character : Character(first)
        }
        return replacement
    }

    /// Whether `scalar` is shown by a terminal as a glyph of its own: not a control (C0, DEL,
    /// C1), format character (bidi controls, zero-width characters, soft hyphen), line or
    /// paragraph separator, combining mark, surrogate, private-use or unassigned code point.
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return false
        default:
            return true
        }
    }
}
