/// The old-CRT look: green phosphor on black, written as ANSI escape sequences with the
/// 256-colour palette (supported by every current terminal emulator and by tmux).
package enum RetroPalette {
    /// Greens of the 256-colour cube, darkest to brightest (#005f00, #008700, #00af00,
    /// #00d700, #00ff00): five phosphor intensities.
    static let greens = [22, 28, 34, 40, 46]
    /// Black background.
    static let black = 16
    /// The beam's afterglow backgrounds, by glow 1...4: the beam is the brightest, the trail
    /// fades to black like phosphor persistence.
    static let glowBackgrounds = [16, 22, 22, 28, 34]

    /// The SGR parameters for a cell, e.g. "1;38;5;46;48;5;16".
    static func parameters(for cell: Cell) -> String {
        let (foreground, bold): (Int, Bool) =
            switch cell.style {
            case .blank: (greens[0], false)
            case .ring: (greens[1], false)
            case .ringLabel: (greens[2], false)
            case .centre: (greens[3], false)
            case .north: (greens[4], true)
            case .compass: (greens[2], false)
            case .aircraft(let size, let lit, let stale):
                stale ? (greens[1], false) : (lit ? greens[4] : greens[min(4, 2 + size)], lit || size >= 2)
            case .label(let stale): (stale ? greens[1] : greens[3], false)
            case .text: (greens[3], false)
            case .heading: (greens[4], true)
            case .warning: (greens[4], true)
            }
        let background = glowBackgrounds[min(max(cell.glow, 0), glowBackgrounds.count - 1)]
        return (bold ? "1;" : "0;") + "38;5;\(foreground);48;5;\(background)"
    }

    /// A canvas row with colours: an SGR sequence wherever the look changes, ending with a reset.
    package static func coloured(_ canvas: RadarCanvas, row: Int) -> String {
        var line = ""
        var current = ""
        for column in 0..<canvas.width {
            guard let cell = canvas[column, row] else { continue }
            let parameters = parameters(for: cell)
            if parameters != current {
                line += "\u{1B}[" + parameters + "m"
                current = parameters
            }
            line.append(cell.character)
        }
        return line + "\u{1B}[0m"
    }
}
