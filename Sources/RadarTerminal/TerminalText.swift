/// Reduces text from outside (callsigns, the daemon's messages, socket paths) to characters
/// a terminal only prints.
///
/// A terminal acts on some characters instead of showing them: C0 and C1 controls (ESC
/// starts sequences that can clear the screen, set the window title or remap keys; CR moves
/// the cursor), DEL, and the Unicode format characters that reorder or hide text (the bidi
/// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, zero-width spaces
/// and joiners). A callsign is whatever a transponder or an API sent, so every character
/// drawn on the radar passes through here. Each character comes out as exactly one
/// character one column wide, so a label keeps the width the layout measured: a character
/// that is not printable, or that a terminal draws two columns wide (CJK, full-width forms,
/// emoji), becomes `replacement`; a combined character keeps only its printable base (its
/// combining marks would otherwise pile onto one column).
package enum TerminalText {
    /// What an unprintable character becomes.
    package static let replacement: Character = "?"

    /// `text` with every character made printable (see `printable(_:)` for one character).
    package static func printable(_ text: String) -> String {
        String(text.map { (character: Character) -> Character in printable(character) })
    }

    /// `character` itself when it is one printable scalar; its first scalar when that is
    /// printable and the rest are marks or format characters; else `replacement`.
    package static func printable(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        if let first = scalars.first, isPrintable(first), !isWide(first) {
            return scalars.count == 1 ? character : Character(first)
        }
        return replacement
    }

    /// Whether a terminal draws `scalar` two columns wide: emoji shown as pictures, and the
    /// East Asian wide and full-width blocks (Hangul, CJK and its punctuation, kana, the
    /// full-width forms, the supplementary ideographs).
    package static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is shown by a terminal as a glyph of its own: not a control (C0, DEL,
    /// C1), format character (bidi controls, zero-width characters, soft hyphen), line or
    /// paragraph separator, combining mark, surrogate, private-use or unassigned code point.
    package static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned,
            .nonspacingMark, .spacingMark, .enclosingMark:
            return false
        default:
            return true
        }
    }
}
