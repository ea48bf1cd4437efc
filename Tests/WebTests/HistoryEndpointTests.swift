import Foundation
import History
import Testing

@testable import Web

/// The history's endpoints behind the web server: answers from a real store, 400 for any
/// refused parameter, 503 without a store, never a trap.
@Suite struct HistoryEndpointTests {
    static let now = 1_700_000_000.0

    /// An endpoint over a store in a new directory holding one short track; the directory to
    /// remove afterwards.
    func endpoint() throws -> (HistoryEndpoint, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-history-web-\(UUID().uuidString.prefix(8))"
        ).path
        let store = try HistoryStore(directory: directory, now: Self.now)
        var rows: [HistoryRecord] = (0..<30).map { index in
            .position(
                TrackPoint(
                    address: 0x40_621D, time: Self.now - 300 + Double(index * 10), latitude: 51.5,
                    longitude: Double(index) * 0.01, altitudeFt: 30_000))
        }
        var sighting = Sighting(address: 0x40_621D, start: Self.now - 300)
        sighting.lastSeen = Self.now
        rows.append(.sighting(sighting))
        try store.write(rows)
        let endpoint = HistoryEndpoint(
            reader: HistoryReader(directory: directory, receiver: nil), clock: { Self.now })
        return (endpoint, directory)
    }

    @Test func answersFromTheStore() throws {
        let (endpoint, directory) = try endpoint()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard case .json(let tracks) = endpoint.answer(path: "/data/history/tracks", query: "limit=5") else {
            Issue.record("tracks was refused")
            return
        }
        #expect(tracks.contains("\"truncated\":true"))
        guard case .json(let trace) = endpoint.answer(path: "/data/history/trace", query: "hex=40621d") else {
            Issue.record("trace was refused")
            return
        }
        #expect(trace.contains("\"icao\":\"40621d\""))
        for path in ["/data/outline.json", "/data/history/chart", "/data/history/coverage", "/data/history/diary"] {
            guard case .json(let text) = endpoint.answer(path: path, query: nil) else {
                Issue.record("\(path) was refused")
                continue
            }
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(path): \(text)")
        }
    }

    @Test func theSkyOfThePastIsAFeedFrame() throws {
        let (endpoint, directory) = try endpoint()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let at = Int(Self.now) - 155
        guard
            case .json(let text) = endpoint.answer(
                path: "/data/history/sky", query: "at=\(at)&lat=51.4&lon=0.1&alt_m=20&range_km=100")
        else {
            Issue.record("sky was refused")
            return
        }
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(frame["type"] as? String == "frame" && frame["source"] as? String == "history")
        #expect(frame["seq"] as? Int == at && frame["range_km"] as? Double == 100)
        let aircraft = try #require(frame["aircraft"] as? [[String: Any]])
        #expect(aircraft.count == 1)
        // Halfway between the positions at 140 s and 150 s in: longitude 0.145.
        let plane = try #require(aircraft.first)
        #expect(plane["icao"] as? String == "40621d")
        #expect(abs((plane["lon"] as? Double ?? 0) - 0.145) < 1e-6)
        // Placed in the sky of the observer asked for: 11.1 km north and 3.1 km east of it
        // (bearing 15.7°), 30,000 ft up (38° above the horizon).
        #expect(abs((plane["azimuth_deg"] as? Double ?? 0) - 15.7) < 0.2, "\(plane)")
        #expect(abs((plane["elevation_deg"] as? Double ?? 0) - 38.2) < 0.5, "\(plane)")
        // Outside the range: nothing; without an observer (no receiver here): unplaced, so none.
        guard case .json(let narrow) = endpoint.answer(path: "/data/history/sky", query: "at=\(at)&lat=0&lon=0")
        else {
            Issue.record("sky far away was refused")
            return
        }
        #expect(narrow.contains("\"aircraft\":[]"))
        // The view's filters as the feed applies them: above its 30,000 ft, left out.
        guard
            case .json(let filtered) = endpoint.answer(
                path: "/data/history/sky", query: "at=\(at)&lat=51.4&lon=0.1&range_km=100&max_alt_ft=20000")
        else {
            Issue.record("sky with filters was refused")
            return
        }
        #expect(filtered.contains("\"aircraft\":[]"), "\(filtered)")
    }

    @Test(
        arguments: [
            ("/data/history/sky", nil), ("/data/history/sky", "at=1&lat=52"),
            ("/data/history/sky", "at=1&lat=91&lon=0"),
            ("/data/history/sky", "at=1&lat=1e2&lon=0"), ("/data/history/sky", "at=1&range_km=0"),
            ("/data/history/sky", "at=1&lat=52.12345678&lon=0"), ("/data/history/sky", "at=1&limit=2001"),
            ("/data/history/sky", "at=-5"), ("/data/history/sky", "at=1&alt_m=99999&lat=1&lon=1"),
            ("/data/history/sky", "at=1&hide_on_ground=yes"),
            ("/data/history/sky", "at=1&min_alt_ft=5000&max_alt_ft=10"),
            ("/data/history/tracks", "from=0&to=1700000000"), ("/data/history/tracks", "limit=100001"),
            ("/data/history/trace", nil), ("/data/history/trace", "hex=40621d&period=7d"),
            ("/data/history/chart", "period=1y"), ("/data/history/diary", "from=1700000000&to=1600000000"),
            ("/data/outline.json", "x=1"), ("/data/history/", nil), ("/data/history/../aircraft.json", nil),
            ("/data/history/tracks", "from=1'%20OR%201=1--")
        ])
    func refusedQueriesAreBadRequests(path: String, query: String?) throws {
        let (endpoint, directory) = try endpoint()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard case .badRequest(let reason) = endpoint.answer(path: path, query: query) else {
            Issue.record("\(path)?\(query ?? "") was not refused")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test func answersAwayFromTheServersThreadsAreTheSame() async throws {
        let (endpoint, directory) = try endpoint()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, query) in [("/data/history/tracks", "limit=3"), ("/data/history/chart", "period=9d")] {
            let away = await endpoint.answerAway(path: path, query: query)
            #expect(away == endpoint.answer(path: path, query: query))
        }
    }

    @Test func withoutAStoreTheAnswerIsUnavailable() {
        let endpoint = HistoryEndpoint(
            reader: HistoryReader(directory: "/nonexistent-\(UUID().uuidString)", receiver: nil), clock: { Self.now })
        #expect(endpoint.answer(path: "/data/history/chart", query: nil) != .json(""))
        guard case .unavailable = endpoint.answer(path: "/data/history/chart", query: nil) else {
            Issue.record("a missing store is not 503")
            return
        }
    }

    /// Random bytes as query strings on every endpoint: each answer is JSON or a refusal.
    @Test func randomQueriesAreAnsweredOrRefused() throws {
        let (endpoint, directory) = try endpoint()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = [
            "/data/outline.json", "/data/history/tracks", "/data/history/trace", "/data/history/chart",
            "/data/history/coverage", "/data/history/diary"
        ]
        var generator = SystemRandomNumberGenerator()
        let pieces = ["from=", "to=", "hex=", "limit=", "period=", "&", "1700000000", "40621d", "24h", "%", "'", ";"]
        for _ in 0..<2000 {
            var query = ""
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                query +=
                    Bool.random(using: &generator)
                    ? pieces.randomElement(using: &generator)!
                    : String(UnicodeScalar(UInt8.random(in: 0...127, using: &generator)))
            }
            switch endpoint.answer(path: paths.randomElement(using: &generator)!, query: query) {
            case .json(let text): #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
            case .badRequest(let reason): #expect(!reason.isEmpty)
            case .unavailable(let reason): Issue.record("the store was unavailable: \(reason)")
            }
        }
    }
}
