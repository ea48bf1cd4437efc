import FeedProtocol
import Foundation
import Testing

@testable import RadarTerminal

/// The terminal radar's picture, checked as text: where aircraft, rings, labels and the
/// compass land for known positions and headings.
@Suite struct TerminalRendererTests {
    static let width = 110, height = 40

    func render(
        _ aircraft: [FeedAircraft], heading: Double = 0, range: Double = 50,
        settings: RadarSettings = RadarSettings(), connected: Bool = true,
        colour: Bool = false, sweep: Bool = false, time: Double = 0
    ) -> RadarCanvas {
        let frame = FeedFrame(
            seq: 7, time: 1000, source: "test", headingDeg: heading, rangeKm: range, aircraft: aircraft)
        let model = RadarModel(frame: frame, connected: connected, socketPath: "/tmp/x.sock")
        return RadarRenderer(settings: settings, colour: colour, sweep: sweep)
            .render(model, time: time, width: Self.width, height: Self.height)
    }

    var layout: RadarLayout { RadarLayout(width: Self.width, height: Self.height) }
    /// The columns of the scope, left of the side panel.
    var scope: Range<Int> { 0..<layout.scopeWidth }

    static func plane(
        _ callsign: String, x: Double, y: Double, rotation: Double? = 0, scale: Double? = 1,
        km: Double? = nil, bearing: Double? = nil, altitude: Double? = 10_000
    ) -> FeedAircraft {
        FeedAircraft(
            icao: "abc" + String(callsign.hashValue & 0xFFF, radix: 16), callsign: callsign, altitudeBaroFt: altitude,
            groundKm: km ?? (x * x + y * y).squareRoot() * 50, bearingDeg: bearing, x: x, y: y,
            rotationDeg: rotation, scale: scale)
    }

    @Test func numbersFarOutOfRangeFromAFeedDrawNothingWrongAndNeverTrap() {
        // A feed that is not this daemon's may send any finite number.
        let wild = FeedAircraft(
            icao: "abcdef", callsign: "WILD1", altitudeBaroFt: 1e19, groundKm: 1e19, bearingDeg: 1e300,
            x: 1e300, y: -1e300, rotationDeg: 1e300, scale: 1e300)
        let canvas = render([wild, Self.plane("NEAR1", x: 0.2, y: 0.2)], range: 1e19)
        #expect(canvas.find("NEAR1", columns: scope) != nil, "the other aircraft is drawn")
        #expect(canvas.find("WILD1", columns: scope) == nil, "one far off the radar is not")
        #expect(
            AircraftGlyph.direction(rotationDeg: 1e300)
                == AircraftGlyph.direction(rotationDeg: 1e300.truncatingRemainder(dividingBy: 360)))
        #expect(AircraftGlyph.direction(rotationDeg: 405) == 1)
        let far = layout.cell(x: 1e300, y: 1e300)
        #expect(far.column > layout.scopeWidth && far.row < 0)
    }

    @Test func layoutIsRoundAndCentred() {
        #expect(layout.panelWidth == RadarLayout.panelColumns)
        #expect(layout.scopeWidth == Self.width - RadarLayout.panelColumns)
        #expect(layout.radius >= 10)
        // The scope and its compass letters fit in the scope area.
        #expect(layout.centreRow - layout.radius - 1 >= 0)
        #expect(layout.centreRow + layout.radius + 1 < layout.scopeHeight)
        #expect(layout.centreColumn + 2 * (layout.radius + 1) < layout.scopeWidth)
        #expect(layout.centreColumn - 2 * (layout.radius + 1) >= 0)
        // Narrow terminals lose the panel, not the scope.
        #expect(RadarLayout(width: 60, height: 30).panelWidth == 0)
    }

    @Test func anAircraftEastAtHalfRangeIsRightOfCentreAtHalfTheRadius() throws {
        let canvas = render([Self.plane("EAST1", x: 0.5, y: 0, rotation: 0, bearing: 90)])
        let label = try #require(canvas.find("EAST1", columns: scope))
        let glyph = (column: label.column - 2, row: label.row)
        #expect(glyph.row == layout.centreRow)
        // Half the radius: radius/2 rows, which is radius columns at two columns per row.
        #expect(glyph.column - layout.centreColumn == layout.radius)
        #expect(canvas[glyph.column, glyph.row]?.character == "⇑")
    }

    @Test func positionsFollowXAndYInEveryDirection() throws {
        let cases: [(String, Double, Double)] = [
            ("NORTH", 0, 0.8), ("SOUTH", 0, -0.6), ("WEST", -0.9, 0), ("NE", 0.5, 0.5)
        ]
        let canvas = render(cases.map { Self.plane($0.0, x: $0.1, y: $0.2) })
        for (name, x, y) in cases {
            let label = try #require(canvas.find(name, columns: scope), "\(name) is drawn")
            let expected = layout.cell(x: x, y: y)
            #expect(label.row == expected.row, "\(name) row")
            #expect(label.column == expected.column + 2, "\(name) column")
            let dx = Double(expected.column - layout.centreColumn) / RadarLayout.aspect
            let dy = Double(layout.centreRow - expected.row)
            #expect(
                abs((dx * dx + dy * dy).squareRoot() - (x * x + y * y).squareRoot() * Double(layout.radius)) < 1,
                "\(name) distance")
        }
    }

    @Test func glyphsPointTheWayTheAircraftFliesAndGrowWhenLow() {
        #expect(AircraftGlyph.character(rotationDeg: 90, size: 0) == "→")
        #expect(AircraftGlyph.character(rotationDeg: 180, size: 1) == "⇓")
        #expect(AircraftGlyph.character(rotationDeg: 225, size: 2) == "⇙")
        #expect(AircraftGlyph.character(rotationDeg: 350, size: 0) == "↑")
        #expect(AircraftGlyph.character(rotationDeg: 337.4, size: 0) == "↖")
        #expect(AircraftGlyph.character(rotationDeg: nil, size: 2) == "◆")
        #expect(AircraftGlyph.size(scale: 0.7) == 0)
        #expect(AircraftGlyph.size(scale: 1.2) == 1)
        #expect(AircraftGlyph.size(scale: 2) == 2)
        #expect(AircraftGlyph.size(scale: nil) == 0)

        let canvas = render([
            Self.plane("HIGH", x: -0.5, y: 0.5, rotation: 90, scale: 0.8),
            Self.plane("LOW", x: 0.5, y: -0.5, rotation: 270, scale: 1.9)
        ])
        let high = layout.cell(x: -0.5, y: 0.5)
        let low = layout.cell(x: 0.5, y: -0.5)
        #expect(canvas[high.column, high.row]?.character == "→")
        #expect(canvas[low.column, low.row]?.character == "⇐")
        #expect(canvas[low.column, low.row]?.style == .aircraft(size: 2, lit: false, stale: false))
    }

    @Test func labelsToggleAndNeverOverlap() throws {
        // Two aircraft on the same row, close together: the second label must go elsewhere.
        let planes = [Self.plane("AAA111", x: 0.2, y: 0.3), Self.plane("BBB222", x: 0.25, y: 0.3)]
        let canvas = render(planes)
        let a = try #require(canvas.find("AAA111", columns: scope))
        let b = try #require(canvas.find("BBB222", columns: scope))
        #expect(a.row != b.row || abs(a.column - b.column) > 6)
        var settings = RadarSettings()
        settings.showLabels = false
        let bare = render(planes, settings: settings)
        #expect(bare.find("AAA111", columns: scope) == nil)
        // The panel lists them whether labels are on or not.
        #expect(bare.plainLines.contains { $0.contains("│ ") && $0.contains("AAA111") })
    }

    @Test func northMarkerTurnsWithTheHeading() throws {
        let north = try #require(render([]).find("N"))
        #expect(north.column == layout.centreColumn)
        #expect(north.row == layout.centreRow - layout.radius - 1)
        // Facing east, north is to the left.
        let east = render([], heading: 90)
        let turned = layout.cell(angleDeg: -90, distance: Double(layout.radius) + 1)
        #expect(east[turned.column, turned.row]?.character == "N")
        #expect(east[north.column, north.row]?.character == "E")
        let bottom = (column: north.column, row: layout.centreRow + layout.radius + 1)
        #expect(east[bottom.column, bottom.row]?.character == "W")
    }

    @Test func ringsAreLabelledWithRoundDistances() {
        #expect(RadarRenderer.ringDistances(rangeKm: 50, radius: 15) == [20, 40, 50])
        #expect(RadarRenderer.ringDistances(rangeKm: 100, radius: 15) == [25, 50, 75, 100])
        #expect(RadarRenderer.ringDistances(rangeKm: 30, radius: 15) == [10, 20, 30])
        #expect(RadarRenderer.ringDistances(rangeKm: 5, radius: 15) == [2, 4, 5])
        #expect(RadarRenderer.ringDistances(rangeKm: 1000, radius: 15) == [250, 500, 750, 1000])
        #expect(RadarRenderer.ringDistances(rangeKm: 100, radius: 5) == [50, 100])
        // Steps too small to tell from zero: the outer ring alone, not an endless list.
        #expect(RadarRenderer.ringDistances(rangeKm: 1e-323, radius: 15) == [1e-323])
        let text = render([], range: 100).plainLines.joined(separator: "\n")
        for label in ["25 km", "50 km", "75 km", "100 km"] { #expect(text.contains(label)) }
        #expect(RadarRenderer.distanceText(2.5) == "2.5 km")
        // The outer ring passes through the top of the scope.
        let canvas = render([])
        #expect(canvas[layout.centreColumn, layout.centreRow - layout.radius]?.style == .ring)
    }

    @Test func sidePanelListsNearestFirst() throws {
        var far = Self.plane("FAR9", x: 0.1, y: 0.9, km: 45.26, bearing: 6.3)
        far.altitudeBaroFt = 36_000
        var ground = Self.plane("GND1", x: 0, y: -0.02, km: 1, bearing: 180)
        ground.onGround = true
        let near = Self.plane("NEAR1", x: 0.2, y: 0, km: 10, bearing: 90)
        let lines = render([far, ground, near]).plainLines
        let rows = lines.compactMap { line -> String? in
            guard let bar = line.firstIndex(of: "│") else { return nil }
            return String(line[line.index(after: bar)...]).trimmingCharacters(in: .whitespaces)
        }
        let listed = rows.filter { ["FAR9", "GND1", "NEAR1"].contains(String($0.prefix(while: { $0 != " " }))) }
        #expect(listed.map { String($0.prefix(while: { $0 != " " })) } == ["GND1", "NEAR1", "FAR9"])
        #expect(listed.first?.contains("GND") == true)
        #expect(listed.last == "FAR9             36000  45.3 006°")
    }

    @Test func waitingForTheDaemonIsShown() {
        let model = RadarModel(
            frame: nil, connected: false, socketPath: "/run/user/1000/aviator-adsb.sock",
            problem: "cannot connect: No such file or directory")
        let text = RadarRenderer(settings: RadarSettings(), colour: false, sweep: true)
            .render(model, time: 0, width: 100, height: 30).plainLines.joined(separator: "\n")
        #expect(text.contains("waiting for aviator-adsb..."))
        #expect(text.contains("/run/user/1000/aviator-adsb.sock"))
        #expect(text.contains("NO FEED"))
        // A frame from before the daemon went away is not drawn as if it were live.
        let stale = render([Self.plane("OLD1", x: 0.3, y: 0.3)], connected: false)
        #expect(stale.find("OLD1") == nil)
    }

    @Test func withoutAReceiverPositionAircraftAreListedOnly() {
        let unplaced = FeedAircraft(icao: "4840d6", callsign: "KLM1023", altitudeBaroFt: 19_685)
        let lines = render([unplaced]).plainLines
        #expect(lines.contains { $0.contains("receiver position unknown") })
        #expect(lines.contains { $0.contains("│ KLM1023") })
        // With a position the notice is gone.
        let placed = render([Self.plane("KLM1023", x: 0.2, y: 0.2)]).plainLines
        #expect(!placed.contains { $0.contains("receiver position unknown") })
    }

    @Test func sweepTurnsAndLeavesAFadingTrail() {
        // A quarter period: the beam points right (90°).
        let time = RadarRenderer.sweepPeriod / 4
        #expect(abs(RadarRenderer.sweepAngle(at: time) - 90) < 1e-9)
        let canvas = render([], colour: true, sweep: true, time: time)
        let beam = layout.cell(angleDeg: 90, distance: Double(layout.radius) / 2)
        let trail = layout.cell(angleDeg: 90 - RadarRenderer.trailDeg * 0.8, distance: Double(layout.radius) / 2)
        let ahead = layout.cell(angleDeg: 180, distance: Double(layout.radius) / 2)
        let beamGlow = canvas[beam.column, beam.row]?.glow ?? 0
        let trailGlow = canvas[trail.column, trail.row]?.glow ?? 0
        #expect(beamGlow == RadarCanvas.maxGlow)
        #expect(trailGlow > 0 && trailGlow < beamGlow)
        #expect(canvas[ahead.column, ahead.row]?.glow == 0)
        // Without colours the beam is drawn with characters instead.
        let plain = render([], sweep: true, time: time)
        #expect(plain[beam.column, beam.row]?.character == ":")
        // Colour output carries escape sequences; plain output none.
        #expect(RetroPalette.coloured(canvas, row: beam.row).contains("\u{1B}[0;38;5;"))
        #expect(!plain.plainLines.joined().contains("\u{1B}"))
    }

    @Test func aTinyTerminalGetsAMessageNotACrash() {
        let canvas = RadarRenderer(settings: RadarSettings(), colour: true, sweep: true)
            .render(RadarModel(), time: 0, width: 24, height: 5)
        #expect(canvas.text(row: 0).hasPrefix("terminal too small"))
        let empty = RadarRenderer(settings: RadarSettings(), colour: true, sweep: true)
            .render(RadarModel(), time: 0, width: 0, height: 0)
        #expect(empty.cells.isEmpty)
    }
}
