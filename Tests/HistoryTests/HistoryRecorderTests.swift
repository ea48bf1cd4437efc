import ModeS
import Testing
import Tracking

@testable import History

/// Snapshots into rows: one sighting per visit, thinned positions, minutes, coverage.
@Suite struct HistoryRecorderTests {
    typealias Data = HistoryTestData

    /// The rows of `records` of one kind.
    func positions(_ records: [HistoryRecord]) -> [TrackPoint] {
        records.compactMap { if case .position(let p) = $0 { p } else { nil } }
    }
    func sightings(_ records: [HistoryRecord]) -> [Sighting] {
        records.compactMap { if case .sighting(let s) = $0 { s } else { nil } }
    }

    @Test func oneVisitHasOneSightingWithItsExtremes() {
        var recorder = HistoryRecorder(receiver: Data.receiver)
        var records: [HistoryRecord] = []
        for second in 0..<300 {
            let time = 1_000_000 + Double(second)
            let plane = Data.aircraft(
                0x484_1AB, time: time, longitude: 4.9 + Double(second) * 0.002, altitude: 12_000 - second * 20,
                speed: 300 + Double(second))
            records += recorder.observe([plane], at: time)
        }
        let rows = sightings(records)
        // Written when first seen and then every sightingInterval (120 s), always the same visit.
        #expect(rows.count == 3, "\(rows.count)")
        #expect(Set(rows.map(\.start)) == [1_000_000])
        let last = rows.last!
        // The row of second 240; the rest of the visit is pending until the next write.
        #expect(last.minAltitudeFt == 12_000 - 240 * 20)
        #expect(last.maxAltitudeFt == 12_000)
        #expect(last.maxSpeedKt == 540)
        #expect(last.callsign == "KLM1234")
        #expect((last.closestKm ?? 0) > 10)
        let pending = sightings(recorder.pendingSightings())
        #expect(pending.map(\.minAltitudeFt) == [12_000 - 299 * 20])
        // Descending 20 ft a second: a point (and the one before it) every 26 s (520 ft), far
        // fewer than one a second.
        let kept = positions(records).count
        #expect(kept >= 12 && kept < 60, "\(kept)")
    }

    @Test func aReturnAfterTheGapIsANewVisit() {
        var recorder = HistoryRecorder(receiver: Data.receiver)
        var records = recorder.observe([Data.aircraft(0xABC, time: 100)], at: 100)
        records += recorder.observe([], at: 100 + HistoryRecorder.visitGap + 1)
        #expect(recorder.openVisits == 0)
        let later = 200 + HistoryRecorder.visitGap
        records += recorder.observe([Data.aircraft(0xABC, time: later)], at: later)
        #expect(Set(sightings(records).map(\.start)) == [100, later])
    }

    @Test func aMinuteCountsItsAircraftAndRangeAndCoverageGrows() throws {
        var recorder = HistoryRecorder(receiver: Data.receiver)
        let planes = [
            Data.aircraft(1, time: 60, latitude: 53.0, longitude: 4.76, altitude: 35_000),
            Data.aircraft(2, time: 60, latitude: 52.28, longitude: 5.5, altitude: 3000)
        ]
        var noPosition = AircraftState(icao: 3, lastSeen: 60, source: .modeS)
        noPosition.altitudeBaroFt = 20_000
        _ = recorder.observe(planes + [noPosition], at: 60)
        let rows = recorder.closeMinute(60, messages: 1234, signalDBFS: -20, noiseDBFS: -35, peakSignalDBFS: -3)
        guard case .minute(let minute) = rows.first else {
            Issue.record("the first row is not the minute")
            return
        }
        #expect(minute.messages == 1234 && minute.aircraft == 3 && minute.withPosition == 2)
        let north = CPR.distanceKm(Data.receiver, GeoPoint(latitude: 53.0, longitude: 4.76))
        #expect(abs((minute.maxRangeKm ?? 0) - north) < 0.01)
        let cells = rows.compactMap { if case .coverage(let c) = $0 { c } else { nil } }
        // North (sector 0, band 35,000 ft) and east by south, 92° (sector 18, band 3,000 ft).
        #expect(Set(cells.map { [$0.sector, $0.band] }) == [[0, 4], [18, 0]])
        // The next minute starts empty, and a cell that did not grow is not written again.
        let next = recorder.closeMinute(120, messages: 0, signalDBFS: nil, noiseDBFS: nil, peakSignalDBFS: nil)
        #expect(next.count == 1)
        // A cell that grows is there for the next batch, once.
        _ = recorder.observe([Data.aircraft(1, time: 130, latitude: 53.5, longitude: 4.76, altitude: 35_000)], at: 130)
        let grown = recorder.changedCoverage()
        #expect(grown.count == 1)
        #expect(recorder.changedCoverage().isEmpty)
    }

    @Test func sectorsAndBandsCoverEveryBearingAndAltitude() {
        #expect(RangeCoverage.sector(bearing: 0) == 0)
        #expect(RangeCoverage.sector(bearing: 359.99) == 71)
        #expect(RangeCoverage.sector(bearing: -1) == 71)
        #expect(RangeCoverage.sector(bearing: 725) == 1)
        #expect(RangeCoverage.sector(bearing: .nan) == 0)
        #expect(RangeCoverage.band(altitudeFt: -500) == 0)
        #expect(RangeCoverage.band(altitudeFt: 5000) == 1)
        #expect(RangeCoverage.band(altitudeFt: 45_000) == 4)
        let east = RangeCoverage.bearing(from: Data.receiver, to: GeoPoint(latitude: 52.3, longitude: 6))
        #expect(abs(east - 90) < 1)
    }
}
