import TestSupport
import Testing
import Tracking

/// The live tracker's counts by downlink format and by source, which `/metrics` reports.
@Suite struct LiveTrackerCountsTests {
    @Test func framesAreCountedByFormatAndBySource() {
        let tracker = WiredTracker(receiver: nil)
        for icao in [0x4840D6, 0x3C6586, 0x40621D] as [UInt32] {
            tracker.accept(OutputTestFrames.allCall(icao: icao), at: tracker.now, from: "replay")
        }
        tracker.accept(OutputTestFrames.altitudeReply(icao: 0x4840D6, feet: 10_000), at: tracker.now, from: "replay")
        tracker.accept(
            OutputTestFrames.altitudeReply(df: 20, icao: 0x3C6586, feet: 11_000), at: tracker.now, from: "beast-in b:1")

        let counters = tracker.counters
        #expect(counters.framesByFormat[11] == 3)
        #expect(counters.framesByFormat[4] == 1)
        #expect(counters.framesByFormat[20] == 1)
        #expect(counters.framesByFormat.reduce(0, +) == counters.frames)
        let bySource = tracker.sourceCounts
        #expect(bySource.map(\.label) == ["replay", "beast-in b:1"])
        #expect(bySource.map(\.frames) == [4, 1])
        let aircraft = tracker.aircraftCounts()
        #expect(aircraft.all == 3)
        #expect(aircraft.withPosition == 0)
    }
}
