import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the parts of the radar screen go for a terminal of a given size: the round scope on
/// the left, the aircraft list on the right when there is room, a status line at the bottom.
///
/// Terminal cells are about twice as tall as they are wide, so the scope is drawn with a
/// radius of `radius` rows and `2 × radius` columns to look round.
package struct RadarLayout: Sendable, Equatable {
    /// Width of the side panel including its border, 0 when the terminal is too narrow.
    package let panelWidth: Int
    /// Columns of the scope area (left of the panel).
    package let scopeWidth: Int
    /// Rows of the scope area (above the status line).
    package let scopeHeight: Int
    /// Centre column of the scope.
    package let centreColumn: Int
    /// Centre row of the scope.
    package let centreRow: Int
    /// Radius of the outer ring in rows (in columns it is twice this).
    package let radius: Int

    /// Columns per row: the cell aspect ratio the scope is corrected for.
    package static let aspect = 2.0
    /// The side panel's width: callsign, type, altitude, distance and bearing columns plus
    /// margins.
    package static let panelColumns = 37
    /// The narrowest terminal that still gets the side panel (the scope keeps 38 columns).
    package static let minWidthForPanel = 75

    /// The layout for `width` × `height` cells.
    package init(width: Int, height: Int) {
        panelWidth = width >= RadarLayout.minWidthForPanel ? RadarLayout.panelColumns : 0
        scopeWidth = max(0, width - panelWidth)
        scopeHeight = max(0, height - 1)
        centreColumn = scopeWidth / 2
        centreRow = (scopeHeight - 1) / 2
        // One row and two columns of margin outside the outer ring for the compass letters.
        let byRows = (scopeHeight - 1) / 2 - 1
        let byColumns = Int(Double((scopeWidth - 1) / 2 - 2) / RadarLayout.aspect)
        radius = max(0, min(byRows, byColumns))
    }

    /// The cell of the radar position `x`, `y` (fractions of the radius, x right, y up).
    /// Positions far off the radar (a feed may send any number) land on a cell just as far
    /// off the screen, a few radii out, rather than one beyond what an `Int` holds.
    package func cell(x: Double, y: Double) -> (column: Int, row: Int) {
        func limited(_ fraction: Double) -> Double { fraction.isFinite ? min(max(fraction, -4), 4) : 4 }
        return (
            centreColumn + Int((limited(x) * Double(radius) * RadarLayout.aspect).rounded()),
            centreRow - Int((limited(y) * Double(radius)).rounded())
        )
    }

    /// The cell at `angleDeg` (clockwise from up) and `distance` rows from the centre.
    package func cell(angleDeg: Double, distance: Double) -> (column: Int, row: Int) {
        let angle = angleDeg * .pi / 180
        return cell(
            x: sin(angle) * distance / Double(max(radius, 1)), y: cos(angle) * distance / Double(max(radius, 1)))
    }

    /// Whether a cell is in the scope area.
    package func inScope(column: Int, row: Int) -> Bool {
        column >= 0 && column < scopeWidth && row >= 0 && row < scopeHeight
    }
}
