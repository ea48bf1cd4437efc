/// A grid of character cells the radar is drawn on, column 0 / row 0 at the top left.
/// Drawing outside the grid is silently clipped, so the renderer need not check bounds, and
/// every character drawn is made printable, so a callsign or a message cannot send the
/// terminal a control sequence.
package struct RadarCanvas: Sendable, Equatable {
    /// Columns.
    package let width: Int
    /// Rows.
    package let height: Int
    /// The cells, row by row.
    package private(set) var cells: [Cell]

    /// Strongest sweep glow (the beam itself).
    package static let maxGlow = 4

    /// A blank canvas.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at `column`, `row`; nil outside the grid.
    package subscript(column: Int, row: Int) -> Cell? {
        guard contains(column: column, row: row) else { return nil }
        return cells[row * width + column]
    }

    /// Whether the position is on the grid.
    package func contains(column: Int, row: Int) -> Bool {
        column >= 0 && column < width && row >= 0 && row < height
    }

    /// Puts `character` at a position, keeping the cell's glow. Whatever is put is made
    /// printable first (`TerminalText`): no text from outside reaches the terminal raw.
    package mutating func put(_ character: Character, column: Int, row: Int, style: CellStyle) {
        guard contains(column: column, row: row) else { return }
        cells[row * width + column].character = TerminalText.printable(character)
        cells[row * width + column].style = style
    }

    /// Writes `text` from a position to the right, one character per column.
    package mutating func write(_ text: String, column: Int, row: Int, style: CellStyle) {
        for (offset, character) in text.enumerated() {
            put(character, column: column + offset, row: row, style: style)
        }
    }

    /// Raises the sweep glow of a cell to at least `glow`.
    package mutating func glow(_ glow: Int, column: Int, row: Int) {
        guard contains(column: column, row: row) else { return }
        cells[row * width + column].glow = max(cells[row * width + column].glow, glow)
    }

    /// One row's characters.
    package func text(row: Int) -> String {
        guard row >= 0 && row < height else { return "" }
        return String(cells[(row * width)..<((row + 1) * width)].map(\.character))
    }

    /// The whole canvas as plain text, one string per row, trailing blanks removed.
    package var plainLines: [String] {
        (0..<height).map { row in
            var line = text(row: row)
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Where `text` first appears on the canvas, as (column, row), looking only in `columns`
    /// when given; nil if nowhere.
    package func find(_ text: String, columns: Range<Int>? = nil) -> (column: Int, row: Int)? {
        let target = Array(text)
        let range = (columns ?? 0..<width).clamped(to: 0..<width)
        guard !target.isEmpty, target.count <= range.count else { return nil }
        for row in 0..<height {
            let characters = Array(self.text(row: row))
            for column in range.lowerBound...(range.upperBound - target.count)
            where Array(characters[column..<(column + target.count)]) == target {
                return (column, row)
            }
        }
        return nil
    }
}
