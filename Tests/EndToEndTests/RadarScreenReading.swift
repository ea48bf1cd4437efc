import Foundation

/// Reads a captured terminal-radar screen back: where the scope's centre is and how large it
/// is (from the four compass letters), and where texts are. Written from the radar's
/// documented picture, not from its code, so it checks the picture independently.
struct RadarScreenReading {
    let rows: [[Character]]
    /// Columns of the scope: left of the side panel's border.
    let scopeWidth: Int

    init(_ lines: [String]) {
        let rows = lines.map(Array.init)
        self.rows = rows
        // The panel border is the column holding "│" on most rows.
        var counts: [Int: Int] = [:]
        for row in rows {
            for (column, character) in row.enumerated() where character == "│" { counts[column, default: 0] += 1 }
        }
        scopeWidth = counts.filter { $0.value >= rows.count / 2 }.keys.min() ?? (rows.map(\.count).max() ?? 0)
    }

    func character(_ column: Int, _ row: Int) -> Character? {
        guard row >= 0, row < rows.count, column >= 0, column < rows[row].count else { return nil }
        return rows[row][column]
    }

    /// Cells of the scope holding `letter` with no letter or digit on either side.
    func isolated(_ letter: Character) -> [(column: Int, row: Int)] {
        var found: [(Int, Int)] = []
        for (rowIndex, row) in rows.enumerated() {
            for column in 0..<min(scopeWidth, row.count) where row[column] == letter {
                let before = column > 0 ? row[column - 1] : " "
                let after = column + 1 < row.count ? row[column + 1] : " "
                if !before.isLetter && !before.isNumber && !after.isLetter && !after.isNumber {
                    found.append((column, rowIndex))
                }
            }
        }
        return found
    }

    /// The scope's centre and radius in rows, from the compass letters for `headingDeg` (a
    /// multiple of 90): the letters at the top and bottom are one row outside the outer ring.
    func scope(headingDeg: Int) -> (column: Int, row: Int, radius: Int)? {
        let letters: [Character] = ["N", "E", "S", "W"]
        let top = letters[(heading(headingDeg) / 90) % 4]
        let bottom = letters[(heading(headingDeg) / 90 + 2) % 4]
        let left = letters[(heading(headingDeg) / 90 + 3) % 4]
        let right = letters[(heading(headingDeg) / 90 + 1) % 4]
        guard let t = isolated(top).first, let b = isolated(bottom).first(where: { $0.column == t.column }),
            let l = isolated(left).first, let r = isolated(right).first(where: { $0.row == l.row })
        else { return nil }
        let row = (t.row + b.row) / 2
        guard l.row == row, abs((l.column + r.column) / 2 - t.column) <= 1 else { return nil }
        return (t.column, row, (b.row - t.row) / 2 - 1)
    }

    private func heading(_ degrees: Int) -> Int { ((degrees % 360) + 360) % 360 }

    /// Every place `text` appears in the scope.
    func occurrences(of text: String) -> [(column: Int, row: Int)] {
        let target = Array(text)
        var found: [(Int, Int)] = []
        for (rowIndex, row) in rows.enumerated() where row.count >= target.count {
            let limit = min(scopeWidth, row.count) - target.count
            guard limit >= 0 else { continue }
            for column in 0...limit where Array(row[column..<(column + target.count)]) == target {
                found.append((column, rowIndex))
            }
        }
        return found
    }

    /// Whether the text is anywhere on the screen, panel included.
    func contains(_ text: String) -> Bool {
        rows.contains { String($0).contains(text) }
    }
}
