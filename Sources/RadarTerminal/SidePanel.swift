import FeedProtocol
import FoundationEssentials
import ModeS
import Support

/// The list beside the scope: the view in force, the feed's state, and the aircraft nearest
/// first with callsign, ICAO type designator (when the identity data knows it), altitude,
/// distance and bearing.
struct SidePanel {
    let settings: RadarSettings

    func draw(_ canvas: inout RadarCanvas, _ layout: RadarLayout, _ model: RadarModel) {
        let left = layout.scopeWidth
        let rows = layout.scopeHeight
        for row in 0..<rows { canvas.put("│", column: left, row: row, style: .ring) }
        let column = left + 2
        var row = 0
        func line(_ text: String, _ style: CellStyle = .text) {
            guard row < rows else { return }
            canvas.write(String(text.prefix(RadarLayout.panelColumns - 3)), column: column, row: row, style: style)
            row += 1
        }
        line("AVIATOR-ADSB RADAR", .heading)
        line("HDG \(RadarRenderer.degrees(settings.headingDeg))  RANGE \(RadarRenderer.distanceText(settings.rangeKm))")
        line("ALT \(settings.filter.name)  LABELS \(settings.showLabels ? "on" : "off")")
        if let frame = model.frame, model.connected {
            line("SRC \(frame.source)  #\(frame.seq)")
        } else {
            line("NO FEED", .warning)
        }
        line(String(repeating: "─", count: RadarLayout.panelColumns - 3), .ring)
        line("CALLSIGN TYPE   ALT ft    KM  BRG", .heading)
        guard let frame = model.frame, model.connected else { return }
        let planes = frame.byDistance
        let room = rows - row
        let shown = planes.count > room ? max(0, room - 1) : planes.count
        for plane in planes.prefix(shown) {
            line(SidePanel.row(plane), .label(stale: plane.stale))
        }
        if shown < planes.count { line("+\(planes.count - shown) more") }
        if planes.isEmpty { line("no aircraft in view") }
    }

    /// One aircraft's line: callsign (8), type (4), altitude (6, "GND" on the ground),
    /// distance (5) and bearing (4), for example `KLM1023  B738    19685  30.3 043°`.
    static func row(_ plane: FeedAircraft) -> String {
        let name = column(plane.label, 8)
        // A designator is at most four characters; anything else from outside is cut.
        let type = " " + column(plane.identity?.typeCode ?? "", 4)
        let altitude: String
        if plane.onGround == true {
            altitude = "GND"
        } else if let feet = plane.altitudeFt {
            altitude = DecimalText.fixed(feet, places: 0)
        } else {
            altitude = "-"
        }
        let distance: String
        if let km = plane.groundKm {
            distance = DecimalText.fixed(km, places: km < 100 ? 1 : 0)
        } else {
            distance = "-"
        }
        let bearing = plane.bearingDeg.map(RadarRenderer.degrees) ?? "-"
        return name + type + pad(altitude, 9) + pad(distance, 6) + pad(bearing, 5)
    }

    /// `text` cut or padded to `width` characters.
    private static func column(_ text: String, _ width: Int) -> String {
        let cut = text.prefix(width)
        return cut + String(repeating: " ", count: width - cut.count)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
