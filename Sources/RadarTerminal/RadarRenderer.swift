import FeedProtocol
import FoundationEssentials
import ModeS
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws the radar screen: a pure function from what is known (the latest frame, the
/// settings, the time for the sweep) and the terminal size to a canvas of cells. Nothing here
/// touches the terminal, so the picture can be tested as text.
package struct RadarRenderer: Sendable {
    /// What the person chose.
    package var settings: RadarSettings
    /// Whether the output has colours: the sweep's trail is then drawn as a fading glow
    /// behind the characters, else as characters.
    package var colour: Bool
    /// Whether to draw the rotating sweep (off for a still picture such as `--once`).
    package var sweep: Bool

    /// Seconds per turn of the sweep: the slow, steady turn of an old surveillance radar.
    package static let sweepPeriod = 4.0
    /// How far the afterglow trails behind the beam, degrees.
    package static let trailDeg = 90.0
    /// Where on each ring its distance is written, degrees clockwise from up: lower right,
    /// away from the compass letters and the usual busy top of the screen.
    static let ringLabelAngle = 135.0

    /// A renderer for `settings`.
    package init(settings: RadarSettings, colour: Bool, sweep: Bool) {
        self.settings = settings
        self.colour = colour
        self.sweep = sweep
    }

    /// Where the sweep's beam points at `time` (seconds), degrees clockwise from up.
    package static func sweepAngle(at time: Double) -> Double {
        let turns = time / sweepPeriod
        return (turns - turns.rounded(.down)) * 360
    }

    /// The whole screen for a `width` × `height` terminal at `time`.
    package func render(_ model: RadarModel, time: Double, width: Int, height: Int) -> RadarCanvas {
        var canvas = RadarCanvas(width: width, height: height)
        let layout = RadarLayout(width: width, height: height)
        guard layout.radius >= 3 else {
            canvas.write("terminal too small", column: 0, row: 0, style: .warning)
            return canvas
        }
        let headingDeg = model.frame?.headingDeg ?? settings.headingDeg
        let rangeKm = model.frame?.rangeKm ?? settings.rangeKm
        drawRings(&canvas, layout, rangeKm: rangeKm)
        if sweep { drawSweep(&canvas, layout, angle: RadarRenderer.sweepAngle(at: time)) }
        drawCompass(&canvas, layout, headingDeg: headingDeg)
        if let frame = model.frame, model.connected {
            drawAircraft(&canvas, layout, frame.aircraft, sweepAngle: sweep ? RadarRenderer.sweepAngle(at: time) : nil)
            // Without a receiver position the daemon cannot place aircraft on the radar.
            if !frame.aircraft.isEmpty, frame.aircraft.allSatisfy({ $0.x == nil || $0.y == nil }) {
                drawNotice(
                    &canvas, layout,
                    [
                        "receiver position unknown:", "aircraft are listed, not placed",
                        "(aviator-adsb run --receiver LAT,LON)"
                    ])
            }
        }
        if !model.connected { drawWaiting(&canvas, layout, model) }
        if layout.panelWidth > 0 { SidePanel(settings: settings).draw(&canvas, layout, model) }
        drawStatus(&canvas, layout, model)
        return canvas
    }

    // MARK: - Scope

    func drawRings(_ canvas: inout RadarCanvas, _ layout: RadarLayout, rangeKm: Double) {
        let rings = RadarRenderer.ringDistances(rangeKm: rangeKm, radius: layout.radius)
        for km in rings {
            // A hair inside the exact radius, so a ring of 6.5 rows is drawn on row 6 all the
            // way round instead of flickering between rows 6 and 7 where rounding ties.
            let distance = Double(layout.radius) * km / rangeKm - 0.001
            // Enough steps that neighbouring points are less than a column apart.
            let steps = max(32, Int(2 * .pi * distance * RadarLayout.aspect * 2))
            for step in 0..<steps {
                let (column, row) = layout.cell(angleDeg: Double(step) * 360 / Double(steps), distance: distance)
                canvas.put("·", column: column, row: row, style: .ring)
            }
        }
        canvas.put("+", column: layout.centreColumn, row: layout.centreRow, style: .centre)
        for km in rings {
            let (column, row) = layout.cell(
                angleDeg: RadarRenderer.ringLabelAngle, distance: Double(layout.radius) * km / rangeKm)
            canvas.write(RadarRenderer.distanceText(km), column: column + 1, row: row, style: .ringLabel)
        }
    }

    /// The distances of the range rings, km: round steps (1, 2, 2.5 or 5 times a power of ten)
    /// about a quarter of the range apart, so their labels are numbers people read at a
    /// glance, and the outer ring at the range itself. A step ring too close to the outer one
    /// (beyond 85% of the range) is left out. Small scopes get only half and full range.
    package static func ringDistances(rangeKm: Double, radius: Int) -> [Double] {
        guard rangeKm > 0, rangeKm.isFinite else { return [] }
        guard radius >= 8 else { return [rangeKm / 2, rangeKm] }
        let target = rangeKm / 4
        let power = pow(10, (log10(target)).rounded(.down))
        let step = [1, 2, 2.5, 5, 10].map { $0 * power }.first { $0 >= target * 0.999 } ?? 10 * power
        // A range so small that its steps vanish: the outer ring alone.
        guard step > 0, step.isFinite else { return [rangeKm] }
        var rings: [Double] = []
        var km = step
        while km <= rangeKm * 0.85 {
            rings.append(km)
            km += step
        }
        return rings + [rangeKm]
    }

    /// A distance for a ring label: whole kilometres, or one decimal below 10 km when needed.
    static func distanceText(_ km: Double) -> String {
        if km < 10, km != km.rounded() { return DecimalText.fixed(km, places: 1) + " km" }
        return DecimalText.fixed(km, places: 0) + " km"
    }

    func drawSweep(_ canvas: inout RadarCanvas, _ layout: RadarLayout, angle: Double) {
        let radius = Double(layout.radius)
        // Angular step: about half a column at the outer ring, so the wedge has no holes.
        let step = 180 / (.pi * radius * RadarLayout.aspect * 2)
        var behind = 0.0
        while behind <= (colour ? RadarRenderer.trailDeg : 0) {
            let glow = max(1, RadarCanvas.maxGlow - Int(behind / RadarRenderer.trailDeg * Double(RadarCanvas.maxGlow)))
            var distance = 1.0
            while distance <= radius {
                let (column, row) = layout.cell(angleDeg: angle - behind, distance: distance)
                if colour {
                    canvas.glow(glow, column: column, row: row)
                } else if canvas[column, row]?.style == .blank {
                    canvas.put(":", column: column, row: row, style: .ring)
                }
                distance += 0.5
            }
            behind += step
        }
    }

    func drawCompass(_ canvas: inout RadarCanvas, _ layout: RadarLayout, headingDeg: Double) {
        let points: [(Character, Double, CellStyle)] = [
            ("N", 0, .north), ("E", 90, .compass), ("S", 180, .compass), ("W", 270, .compass)
        ]
        for (letter, azimuth, style) in points {
            let (column, row) = layout.cell(angleDeg: azimuth - headingDeg, distance: Double(layout.radius) + 1)
            canvas.put(letter, column: column, row: row, style: style)
        }
    }

    // MARK: - Aircraft

    /// Glyphs first (far ones first, so the nearest end up on top), then labels nearest
    /// first, each in the first free spot beside its glyph.
    func drawAircraft(
        _ canvas: inout RadarCanvas, _ layout: RadarLayout, _ aircraft: [FeedAircraft], sweepAngle: Double?
    ) {
        let placed: [(plane: FeedAircraft, column: Int, row: Int)] = aircraft.compactMap { plane in
            guard let x = plane.x, let y = plane.y, x.isFinite, y.isFinite else { return nil }
            let (column, row) = layout.cell(x: x, y: y)
            guard layout.inScope(column: column, row: row) else { return nil }
            return (plane, column, row)
        }.sorted { ($0.plane.groundKm ?? .infinity) > ($1.plane.groundKm ?? .infinity) }

        // The receiver's "+" stays visible: no label may cover it.
        var taken: Set<Int> = [layout.centreRow * canvas.width + layout.centreColumn]
        for (plane, column, row) in placed {
            let size = AircraftGlyph.size(scale: plane.scale)
            var lit = false
            if let sweepAngle {
                let angle = plane.bearingDeg ?? atan2(plane.x ?? 0, plane.y ?? 0) * 180 / .pi
                let behind = RadarSettings.normalised(sweepAngle - angle)
                lit = behind < RadarRenderer.trailDeg / 3
            }
            canvas.put(
                AircraftGlyph.character(rotationDeg: plane.rotationDeg, size: size), column: column, row: row,
                style: .aircraft(size: size, lit: lit, stale: plane.stale))
            taken.insert(row * canvas.width + column)
        }
        guard settings.showLabels else { return }
        for (plane, column, row) in placed.reversed() {
            let label = plane.label
            for (start, line) in RadarRenderer.labelSpots(column: column, row: row, length: label.count) {
                let cells = (start..<(start + label.count)).map { line * canvas.width + $0 }
                guard layout.inScope(column: start, row: line),
                    layout.inScope(column: start + label.count - 1, row: line),
                    !cells.contains(where: taken.contains)
                else { continue }
                canvas.write(label, column: start, row: line, style: .label(stale: plane.stale))
                // Keep a blank column after the label so two labels never run together.
                taken.formUnion(cells)
                taken.insert(line * canvas.width + start + label.count)
                taken.insert(line * canvas.width + start - 1)
                break
            }
        }
    }

    /// Where a label of `length` may go beside a glyph at `column`, `row`, best first: to
    /// the right after one blank column, to the left, then the same one row up and down.
    package static func labelSpots(column: Int, row: Int, length: Int) -> [(column: Int, row: Int)] {
        let right = column + 2
        let left = column - 1 - length
        return [(right, row), (left, row), (right, row - 1), (right, row + 1), (left, row - 1), (left, row + 1)]
    }

    // MARK: - Text

    func drawWaiting(_ canvas: inout RadarCanvas, _ layout: RadarLayout, _ model: RadarModel) {
        var lines = ["waiting for aviator-adsb..."]
        if !model.socketPath.isEmpty { lines.append(model.socketPath) }
        if let problem = model.problem { lines.append(problem) }
        drawNotice(&canvas, layout, lines)
    }

    /// Lines centred in the scope just below its centre, the first one highlighted.
    func drawNotice(_ canvas: inout RadarCanvas, _ layout: RadarLayout, _ lines: [String]) {
        for (offset, line) in lines.enumerated() {
            let text = String(line.prefix(max(0, layout.scopeWidth - 2)))
            let column = max(0, layout.centreColumn - text.count / 2)
            canvas.write(
                text, column: column, row: layout.centreRow + 2 + offset, style: offset == 0 ? .warning : .text)
        }
    }

    func drawStatus(_ canvas: inout RadarCanvas, _ layout: RadarLayout, _ model: RadarModel) {
        let row = canvas.height - 1
        var text = " ←/→ turn  +/- zoom  l labels  f filter  q quit"
        if layout.panelWidth == 0 {
            text =
                " HDG \(RadarRenderer.degrees(settings.headingDeg)) \(RadarRenderer.distanceText(settings.rangeKm))"
                + "  ←/→ +/- l f q"
        }
        canvas.write(text, column: 0, row: row, style: .text)
        if let error = model.serverError {
            let message = String(("daemon: " + error).prefix(max(0, canvas.width - text.count - 3)))
            canvas.write(message, column: canvas.width - message.count - 1, row: row, style: .warning)
        }
    }

    /// An angle as three digits and a degree sign, e.g. "045°".
    static func degrees(_ value: Double) -> String {
        let digits = String(Int(RadarSettings.normalised(value.rounded())))
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits + "°"
    }
}
