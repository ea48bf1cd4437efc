import FeedProtocol
import Foundation
import Testing

@testable import RadarTerminal

@Suite struct RadarSettingsTests {
    /// A feed line the radar cannot read is said on screen; the frame shown stays the last
    /// good one rather than passing silently for current.
    @Test func anUnreadableFeedLineIsShown() {
        var state = RadarApp.ModelState(model: RadarModel())
        RadarApp.apply(.unreadable(FeedParseError("frame range_km 0 is outside 1...1000")), to: &state)
        #expect(state.model.serverError == "unreadable feed line: frame range_km 0 is outside 1...1000")
        #expect(state.errorTime > 0)
    }

    @Test func turningWrapsAroundNorth() {
        var settings = RadarSettings(headingDeg: 0)
        settings.turn(by: -RadarSettings.headingStep)
        #expect(settings.headingDeg == 350)
        settings.turn(by: 20)
        #expect(settings.headingDeg == 10)
        #expect(RadarSettings(headingDeg: 360).headingDeg == 0)
        #expect(RadarSettings(headingDeg: 725).headingDeg == 5)
    }

    @Test func zoomStepsStopAtTheEnds() {
        var settings = RadarSettings(rangeKm: 50)
        settings.zoom(inward: true)
        #expect(settings.rangeKm == 30)
        settings.zoom(inward: false)
        settings.zoom(inward: false)
        #expect(settings.rangeKm == 75)
        // A range between steps goes to the neighbouring step.
        var odd = RadarSettings(rangeKm: 42)
        odd.zoom(inward: true)
        #expect(odd.rangeKm == 30)
        for _ in 0..<30 { odd.zoom(inward: true) }
        #expect(odd.rangeKm == RadarSettings.rangeSteps.first)
        for _ in 0..<30 { odd.zoom(inward: false) }
        #expect(odd.rangeKm == RadarView.Limits.maxRangeKm)
    }

    @Test func filtersCycle() {
        var filter = AltitudeFilter.all
        var seen: [AltitudeFilter] = []
        for _ in 0..<5 {
            seen.append(filter)
            filter = filter.next
        }
        #expect(seen == [.all, .low, .middle, .high, .all])
        #expect(AltitudeFilter.middle.minFt == 10_000 && AltitudeFilter.middle.maxFt == 30_000)
    }

    /// The command the radar sends is one the server accepts, with the meaning intended.
    @Test func viewCommandIsAcceptedByTheServer() throws {
        let start = RadarView(headingDeg: 0, rangeKm: 50)
        for filter in AltitudeFilter.allCases {
            let settings = RadarSettings(headingDeg: 123.456, rangeKm: 75, filter: filter)
            let view = try FeedMessage.apply(commandLine: Array(settings.viewCommand.utf8), to: start).get()
            #expect(abs(view.headingDeg - 123.46) < 1e-9)
            #expect(view.rangeKm == 75)
            #expect(view.minAltitudeFt == filter.minFt)
            #expect(view.maxAltitudeFt == filter.maxFt)
        }
        // Options on the command line change only what they name.
        let settings = RadarSettings(headingDeg: 90, rangeKm: 30)
        #expect(settings.viewCommand(heading: false, range: false) == nil)
        var daemon = start
        daemon.rangeKm = 200
        let turned = try FeedMessage.apply(
            commandLine: Array(settings.viewCommand(heading: true, range: false)!.utf8), to: daemon
        ).get()
        #expect(turned.headingDeg == 90 && turned.rangeKm == 200)
        let zoomed = try FeedMessage.apply(
            commandLine: Array(settings.viewCommand(heading: false, range: true)!.utf8), to: daemon
        ).get()
        #expect(zoomed.headingDeg == 0 && zoomed.rangeKm == 30)
        // Back to "all" clears filters set before.
        var filtered = start
        filtered.minAltitudeFt = 30_000
        let cleared = try FeedMessage.apply(commandLine: Array(RadarSettings().viewCommand.utf8), to: filtered).get()
        #expect(cleared.minAltitudeFt == nil)
    }
}
