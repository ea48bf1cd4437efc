import Foundation
import Testing

@testable import History

/// The sky at a moment of the past: each aircraft between its stored positions on either
/// side, at its last one for a while after, gone after that, not there before it was heard;
/// its visit's identity alongside.
@Suite struct HistorySkyTests {
    static let start = 1_700_000_000.0

    /// A store holding two aircraft: A every 30 s for 5 minutes flying east and climbing,
    /// B three points with a 100 s gap, and A's visit.
    func store() throws -> (HistoryReader, String) {
        let directory = HistoryTestData.directory("sky")
        let store = try HistoryStore(directory: directory, now: Self.start)
        var rows: [HistoryRecord] = (0...10).map { index in
            .position(
                TrackPoint(
                    address: 0xA0_0001, time: Self.start + Double(index * 30), latitude: 52,
                    longitude: 4 + Double(index) * 0.1, altitudeFt: 10_000 + index * 1_000, groundSpeedKt: 400,
                    trackDeg: 90))
        }
        for time in [0.0, 20, 120] {
            rows.append(
                .position(
                    TrackPoint(
                        address: 0xB0_0002 | 1 << 24, time: Self.start + time, latitude: 51, longitude: 3,
                        altitudeFt: 2_000)))
        }
        var visit = Sighting(address: 0xA0_0001, start: Self.start)
        visit.lastSeen = Self.start + 300
        visit.callsign = "EZY12AB"
        visit.typeCode = "A320"
        visit.registration = "G-EZAB"
        visit.category = "A3"
        rows.append(.sighting(visit))
        try store.write(rows)
        return (HistoryReader(directory: directory, receiver: HistoryTestData.receiver), directory)
    }

    @Test func eachAircraftWhereItWasThen() throws {
        let (reader, directory) = try store()
        defer { HistoryTestData.remove(directory) }
        // 45 s in: A halfway between its points at 30 s and 60 s; B held at 20 s (its next is 100 s on).
        let sky = try reader.sky(at: Self.start + 45, limit: 100)
        #expect(sky.count == 2)
        let a = try #require(sky.first { $0.point.address == 0xA0_0001 })
        #expect(abs(a.point.longitude - 4.15) < 1e-9)
        #expect(a.point.altitudeFt == 11_500)
        #expect(a.point.time == Self.start + 45)
        #expect(a.sighting?.callsign == "EZY12AB" && a.sighting?.typeCode == "A320")
        let b = try #require(sky.first { $0.point.address == 0xB0_0002 | 1 << 24 })
        #expect(b.point.time == Self.start + 20 && b.sighting == nil)
        // 80 s in: B's last position is 60 s old, longer than it is held: gone.
        #expect(try reader.sky(at: Self.start + 80, limit: 100).map(\.point.address) == [0xA0_0001])
        // Exactly on a stored point; past the last one within the hold; before anything.
        #expect(try reader.sky(at: Self.start + 60, limit: 100).first?.point.longitude == 4.2)
        #expect(try reader.sky(at: Self.start + 330, limit: 100).first?.point.time == Self.start + 300)
        #expect(try reader.sky(at: Self.start + 340, limit: 100).isEmpty)
        #expect(try reader.sky(at: Self.start - 1, limit: 100).isEmpty)
        #expect(try reader.sky(at: Self.start + 45, limit: 1).count == 1)
    }

    @Test func acrossTheAntimeridianTheShortWay() {
        let west = TrackPoint(address: 1, time: 0, latitude: 0, longitude: 179.9)
        var east = west
        east.time = 10
        east.longitude = -179.9
        let between = HistoryReader.place(before: west, after: east, at: 5)
        #expect(abs((between?.longitude ?? 0).magnitude - 180) < 1e-9)
        #expect(HistoryReader.place(before: nil, after: east, at: 5) == nil)
    }
}
