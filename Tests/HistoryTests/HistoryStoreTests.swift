import Foundation
import Logging
import Testing

@testable import History

/// The store's file: written in batches, read back by the endpoints' queries, a foreign or
/// damaged file moved aside (never deleted), one writer per directory, retention.
@Suite struct HistoryStoreTests {
    typealias Data = HistoryTestData

    /// A day of one aircraft's flight: positions every 10 s, its sighting, a minute each minute.
    func flight(address: UInt32 = 0x48_41AB, start: Double, seconds: Int = 600) -> [HistoryRecord] {
        var records: [HistoryRecord] = []
        for second in stride(from: 0, to: seconds, by: 10) {
            let time = start + Double(second)
            records.append(
                .position(
                    TrackPoint(
                        address: address, time: time, latitude: 52 + Double(second) * 1e-4, longitude: 4.8,
                        altitudeFt: 2000 + second, groundSpeedKt: 200, trackDeg: 0, verticalRateFpm: 600)))
            if second % 60 == 0 {
                records.append(
                    .minute(
                        MinuteStatistics(
                            time: Int(time) / 60 * 60, messages: 600, aircraft: 1, withPosition: 1, maxRangeKm: 20,
                            signalDBFS: -18, noiseDBFS: -33)))
            }
        }
        var sighting = Sighting(address: address, start: start)
        sighting.lastSeen = start + Double(seconds)
        sighting.callsign = "KLM1"
        sighting.typeCode = "B744"
        sighting.aircraftClass = "heavy"
        sighting.operatorName = "KLM"
        sighting.minAltitudeFt = 2000
        sighting.maxAltitudeFt = 2000 + seconds
        records.append(.sighting(sighting))
        return records
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: text.data(using: .utf8)!) as? [String: Any])
    }

    @Test func batchesReadBackThroughTheQueries() throws {
        let directory = Data.directory("roundtrip")
        defer { Data.remove(directory) }
        let start = 1_700_000_000.0
        let store = try HistoryStore(directory: directory, now: start)
        try store.write(flight(start: start))
        try store.write([
            .coverage(
                CoverageCell(
                    hour: Int(start) / 3600, sector: 3, band: 2, rangeKm: 80, latitude: 53, longitude: 5,
                    altitudeFt: 15_000))
        ])
        let reader = HistoryReader(directory: directory, receiver: Data.receiver)

        let tracks = try json(try reader.tracks(in: start...(start + 95), limit: 5))
        let positions = try #require(tracks["positions"] as? [[String: Any]])
        #expect(positions.count == 5)
        #expect(tracks["truncated"] as? Bool == true)
        #expect(positions.first?["hex"] as? String == "4841ab")

        let trace = try json(try reader.trace(address: 0x48_41AB, in: start...(start + 3600), limit: 1000))
        let points = try #require(trace["trace"] as? [[Any]])
        #expect(points.count == 60)
        #expect((points.last?[0] as? Double) == 590)
        #expect((points.last?[3] as? Int) == 2590)

        let chart = try json(try reader.chart(period: .day, now: start + 600))
        let series = try #require(chart["points"] as? [[String: Any]])
        // 600 messages a minute are 10 a second, in every bucket.
        #expect(!series.isEmpty && series.allSatisfy { ($0["messages_per_s"] as? Double) == 10 })

        let diary = try json(try reader.diaryJSON(in: start...(start + 86_400)))
        #expect(diary["aircraft"] as? Int == 1)
        #expect((diary["biggest"] as? [String: Any])?["type"] as? String == "B744")
        #expect((diary["airlines"] as? [[String: Any]])?.first?["name"] as? String == "KLM")

        let outline = try json(try reader.outlineJSON(now: start + 60))
        let ring = (outline["actualRange"] as? [String: Any])?["last24h"] as? [String: Any]
        #expect((ring?["points"] as? [[Double]]) == [[53, 5, 15_000]])
    }

    @Test func aForeignDatabaseIsMovedAsideAndKept() throws {
        let directory = Data.directory("foreign")
        defer { Data.remove(directory) }
        let path = HistoryStore.path(in: directory)
        let other = try SQLiteConnection(path: path)
        try other.execute("CREATE TABLE photos (name TEXT); INSERT INTO photos VALUES ('mine')")
        _ = other
        let store = try HistoryStore(directory: directory, now: 1_700_000_000)
        let aside = try #require(store.movedAside)
        #expect(aside.path.hasPrefix(path + ".aside-20231114T"))
        #expect(aside.reason.contains("not a history store"))
        // The other application's data is still there, under its new name.
        let kept = try SQLiteConnection(path: aside.path, readOnly: true, create: false)
        #expect(try kept.text("SELECT name FROM photos") == "mine")
        try store.write(flight(start: 1_700_000_000))
    }

    @Test func aGarbageFileIsMovedAsideByteForByte() throws {
        let directory = Data.directory("garbage")
        defer { Data.remove(directory) }
        let path = HistoryStore.path(in: directory)
        let garbage = Foundation.Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let store = try HistoryStore(directory: directory, now: 1_700_000_000)
        let aside = try #require(store.movedAside)
        #expect(try Foundation.Data(contentsOf: URL(fileURLWithPath: aside.path)) == garbage)
        try store.write(flight(start: 1_700_000_000))
    }

    @Test func oneWriterPerDirectory() throws {
        let directory = Data.directory("lock")
        defer { Data.remove(directory) }
        let first = try HistoryStore(directory: directory, now: 0)
        #expect(throws: HistoryError.locked(directory)) { try HistoryStore(directory: directory, now: 0) }
        _ = first
    }

    @Test func retentionRemovesOldDaysThenTheOldestHoursBeyondTheSize() throws {
        let directory = Data.directory("retention")
        defer { Data.remove(directory) }
        let now = 1_700_000_000.0
        let store = try HistoryStore(directory: directory, now: now)
        try store.write(flight(address: 1, start: now - 9 * 86_400))
        try store.write(flight(address: 2, start: now - 3600))
        try store.prune(now: now, retention: HistoryRetention(days: 7, maxMegabytes: 500))
        let reader = HistoryReader(directory: directory, receiver: nil)
        let old = try json(try reader.trace(address: 1, in: (now - 10 * 86_400)...now, limit: 100))
        #expect((old["trace"] as? [Any])?.isEmpty == true)

        // 40 hours of positions, a thousand a minute: far more than 1 MB.
        for hour in 0..<40 {
            var batch: [HistoryRecord] = []
            for index in 0..<2000 {
                let time = now - Double(40 - hour) * 3600 + Double(index)
                batch.append(.position(TrackPoint(address: 3, time: time, latitude: 52, longitude: 4.8)))
            }
            try store.write(batch)
        }
        var retention = HistoryRetention(days: 7)
        retention.maxBytes = 1_000_000
        try store.prune(now: now, retention: retention, maxSteps: 100)
        #expect(try store.bytesInUse() <= 1_000_000)
        #expect(store.bytesOnDisk < 3_000_000)
        let recent = try json(try reader.trace(address: 3, in: (now - 3600)...now, limit: 10))
        #expect((recent["trace"] as? [Any])?.count == 10, "the newest hour stays")
        let oldest = try #require(try store.oldestPositionTime())
        #expect(oldest > now - 40 * 3600)
    }

    @Test func theQueueDropsAndCountsWhatDoesNotFit() {
        let queue = HistoryQueue(capacity: 10)
        queue.add(flight(start: 0, seconds: 150))
        // 15 positions, 3 minutes and the sighting: 19 rows for 10 places.
        #expect(queue.count == 10)
        #expect(queue.dropped == 9)
        let taken = queue.takeAll()
        queue.add(Array(taken.prefix(4)))
        queue.putBack(taken)
        #expect(queue.count == 10 && queue.dropped == 13)
        // What was put back comes first, the oldest of it dropped.
        #expect(queue.takeAll().first == taken[4])
    }

    @Test func theWriterPassesAnUnusableDirectoryAndResumes() throws {
        let parent = Data.directory("resume")
        defer { Data.remove(parent) }
        // A file where the directory should be: every attempt fails until it is gone.
        let blocked = parent + "/history"
        try "not a directory".write(toFile: blocked, atomically: true, encoding: .utf8)
        let writer = HistoryWriter(
            directory: blocked + "/inner", retention: HistoryRetention(), logger: Logger(label: "test"))
        writer.queue.add(flight(start: 1000, seconds: 60))
        writer.flush(now: 1000)
        var statistics = writer.statistics
        #expect(statistics.failures == 1 && !statistics.writing && statistics.queued == 8)
        try FileManager.default.removeItem(atPath: blocked)
        // Not before the retry is due; then everything queued is written.
        writer.flush(now: 1001)
        #expect(writer.statistics.written == 0)
        writer.flush(now: 1000 + HistoryWriter.retryInterval)
        statistics = writer.statistics
        #expect(statistics.written == 8 && statistics.writing && statistics.queued == 0, "\(statistics)")
    }
}

/// Directories the store makes for itself.
@Suite struct HistoryDirectoryTests {
    @Test func missingDirectoriesAreMadeWhereTheyAreNamed() throws {
        let parent = HistoryTestData.directory("made")
        defer { HistoryTestData.remove(parent) }
        let directory = parent + "/a/b/history"
        _ = try HistoryStore(directory: directory, now: 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/" + HistoryStore.fileName))
    }
}
