import FeedProtocol
import Testing

@testable import RadarTerminal

/// The side panel's aircraft lines: fixed columns whatever the feed sends, the type when the
/// identity data knows it.
@Suite struct SidePanelTests {
    @Test func aLineHasCallsignTypeAltitudeDistanceAndBearingInColumns() {
        var plane = TerminalRendererTests.plane("KLM1023", x: 0.2, y: 0.3, km: 30.34, bearing: 43, altitude: 19_685)
        plane.identity = FeedIdentity(typeCode: "B738")
        #expect(SidePanel.row(plane) == "KLM1023  B738    19685  30.3 043°")
        plane.identity = nil
        #expect(SidePanel.row(plane) == "KLM1023          19685  30.3 043°")
    }

    @Test func longTextFromOutsideIsCutToItsColumn() {
        var plane = TerminalRendererTests.plane("ABCDEFGHIJK", x: 0, y: 0.5, km: 250, bearing: 180, altitude: nil)
        plane.identity = FeedIdentity(typeCode: "TOOLONGTYPE")
        let row = SidePanel.row(plane)
        #expect(row == "ABCDEFGH TOOL        -   250 180°")
        #expect(row.count <= RadarLayout.panelColumns - 3)
    }
}
