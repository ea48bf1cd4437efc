/// What a character cell of the radar shows, which decides its colour: the renderer says what
/// each cell is, and only the printer knows the palette.
package enum CellStyle: Sendable, Equatable {
    /// Empty screen.
    case blank
    /// A range ring.
    case ring
    /// A range ring's distance label.
    case ringLabel
    /// The receiver at the centre.
    case centre
    /// The north marker.
    case north
    /// The other compass points.
    case compass
    /// An aircraft icon: `size` 0 (high, small) to 2 (low, large); `lit` just after the sweep
    /// passed over it; `stale` when its position is old.
    case aircraft(size: Int, lit: Bool, stale: Bool)
    /// An aircraft's label.
    case label(stale: Bool)
    /// Ordinary text of the side panel and status line.
    case text
    /// Headings and titles.
    case heading
    /// Something the person should notice (waiting for the daemon, an error from it).
    case warning
}

/// One character cell: what it shows, how, and how strongly the sweep's glow lies on it
/// (0 none, up to `RadarCanvas.maxGlow` right under the beam).
package struct Cell: Sendable, Equatable {
    /// The character; a single terminal column wide.
    package var character: Character
    /// What it is.
    package var style: CellStyle
    /// The sweep's afterglow on this cell.
    package var glow: Int

    /// A cell showing `character` as `style`, without glow.
    package init(_ character: Character, _ style: CellStyle, glow: Int = 0) {
        self.character = character
        self.style = style
        self.glow = glow
    }

    /// An empty cell.
    package static let blank = Cell(" ", .blank)
}
