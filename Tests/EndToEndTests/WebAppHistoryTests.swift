import Foundation
import TestSupport
import Testing

/// The history in a real browser: the Today panel's diary, charts and coverage drawn, the radar rewound
/// to a moment of the past showing every aircraft where the store holds it for that moment (as
/// the test works it out from the stored positions itself), the sky view drawing the same
/// rewound frame, a selected aircraft's stored pass drawn, and back to live; no console
/// error, no CSP violation.
@Suite(.serialized, .tags(.slow)) struct WebAppHistoryTests {
    static let receiver = (lat: 52.3, lon: 4.75)

    @Test(.requires(.program("chromium"))) func theRewindShowsTheStoredSky() async throws {
        guard HeadlessBrowser.available() else { return }
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-rewind-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try Daemon([
            "--replay", sample, "--loop", "--throttle", "--receiver", "\(Self.receiver.lat),\(Self.receiver.lon)",
            "--history-dir", directory, "--http", "127.0.0.1:0", "--frame-interval", "1"
        ])
        defer { _ = daemon.stop() }
        let port = try WebEndToEndTests.webPort(of: daemon)
        #expect(daemon.waitFor("history in", timeout: 30), "\(daemon.stderr)")
        // A position every 30 s of each aircraft flying straight, batches every 5 s. The moment
        // is far enough back that every position within 45 s after it (the most the rewind
        // joins) was committed before the page asked, so the page and the test's later reading
        // of the store see the same positions round it.
        try await Task.sleep(for: .seconds(70))
        let at = Int(Date().timeIntervalSince1970) - 55

        let screenshots =
            ProcessInfo.processInfo.environment["WEB_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-rewind-shots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let report = try await HeadlessBrowser.run(
            [
                "rewind", "http://127.0.0.1:\(port)/", "--at", "\(at)", "--lat", "\(Self.receiver.lat)", "--lon",
                "\(Self.receiver.lon)", "--screenshots", screenshots.path
            ], timeout: 240)
        #expect(report["failure"] == nil, "\(report["failure"] ?? "")")
        #expect((report["problems"] as? [String])?.isEmpty == true, "\(report["problems"] ?? "")")
        let today = try #require(report["today"] as? [String: Any])
        #expect((today["cards"] as? Int ?? 0) >= 4 && today["charts"] as? Int == 4, "\(today)")
        // The coverage plot: its rings and labels alone are about 3,300 of its 102,400 pixels;
        // the wedges of 65 aircraft round the airport add some 4,000 more.
        #expect((today["coverageInk"] as? Int ?? 0) > 5_000, "\(today)")

        let rewound = try #require(report["rewound"] as? [String: Any])
        #expect(rewound["rewinding"] as? Bool == true)
        let moment = try #require(rewound["seq"] as? Int, "no rewound frame")
        #expect(abs(moment - at) <= 2, "paused at \(moment), asked for \(at)")
        let stored = try await Self.storedSky(port: port, at: Double(moment))
        try Self.compare(rewound["items"] as? [[String: Any]] ?? [], with: stored)

        let sky = try #require(report["sky"] as? [String: Any])
        #expect(sky["skySeq"] as? Int == moment, "the sky view draws frame \(sky["skySeq"] ?? ""), not \(moment)")
        #expect((sky["skyMarkers"] as? Int ?? 0) + (sky["skyArrows"] as? Int ?? 0) > 0, "\(sky)")
        let track = try #require(report["track"] as? [String: Any], "no aircraft selected")
        #expect((track["trackPoints"] as? Int ?? 0) > 1, "\(track)")
        let live = try #require(report["live"] as? [String: Any])
        #expect(live["rewinding"] as? Bool == false && !(live["status"] as? String ?? "").contains("rewind"))
        print(
            "browser rewind: today \(today); frame \(moment): \((rewound["items"] as? [Any])?.count ?? 0) aircraft; "
                + "sky view \(sky["skyMarkers"] ?? 0) markers, \(sky["skyArrows"] ?? 0) arrows; track of "
                + "\(track["icao"] ?? "") \(track["trackPoints"] ?? 0) points; screenshots in \(screenshots.path)")
    }

    /// Each ICAO aircraft's place at `at` worked out from the stored positions around it: the
    /// straight line between the last at or before and the first after (when at most 45 s
    /// apart), else the last one for 35 s (docs/history.md), as bearing and ground distance
    /// from the receiver on a sphere.
    static func storedSky(port: Int, at: Double) async throws -> [String: (azimuth: Double, km: Double)] {
        let answer = try await EndToEnd.MetricsEndToEndTests.get(
            port, "/data/history/tracks?from=\(Int(at) - 45)&to=\(Int(at) + 45)&limit=100000")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        let positions = try #require(object["positions"] as? [[String: Any]])
        var byAircraft: [String: [(time: Double, lat: Double, lon: Double, feet: Double)]] = [:]
        for p in positions {
            guard let hex = p["hex"] as? String, !hex.hasPrefix("~"), let time = p["time"] as? Double,
                let lat = p["lat"] as? Double, let lon = p["lon"] as? Double
            else { continue }
            byAircraft[hex, default: []].append((time, lat, lon, p["alt"] as? Double ?? 0))
        }
        var sky: [String: (azimuth: Double, km: Double)] = [:]
        for (hex, points) in byAircraft {
            guard let before = points.last(where: { $0.time <= at }) else { continue }
            var place = (lat: before.lat, lon: before.lon, feet: before.feet)
            if let after = points.first(where: { $0.time > at }), after.time - before.time <= 45 {
                let share = (at - before.time) / (after.time - before.time)
                func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * share }
                place = (mix(before.lat, after.lat), mix(before.lon, after.lon), mix(before.feet, after.feet))
            } else if at - before.time > 35 {
                continue
            }
            sky[hex] = bearingAndDistance(from: receiver, to: place)
        }
        return sky
    }

    /// The bearing and the distance in the horizontal plane at the observer (the feed's
    /// `ground_km`: an aircraft `feet` up is that much further from the earth's centre, so its
    /// distance across the plane is `(R + height) sin(angle at the centre)`).
    static func bearingAndDistance(
        from a: (lat: Double, lon: Double), to b: (lat: Double, lon: Double, feet: Double)
    ) -> (azimuth: Double, km: Double) {
        let earth = 6371.0088
        let (p1, p2) = (a.lat * .pi / 180, b.lat * .pi / 180)
        let dl = (b.lon - a.lon) * .pi / 180
        let h = pow(sin((p2 - p1) / 2), 2) + cos(p1) * cos(p2) * pow(sin(dl / 2), 2)
        let km = (earth + b.feet * 0.0003048) * sin(2 * asin(min(1, h.squareRoot())))
        let y = sin(dl) * cos(p2)
        let x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        return ((atan2(y, x) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360), km)
    }

    /// The page's list against the stored sky: the same aircraft within the app's 50 km (those
    /// within half a per cent of the edge either way), each within 0.3° and 0.4% (the feed's
    /// ellipsoid against the test's sphere: their radii differ by up to 0.3% at 52°) and the
    /// 10 m the list rounds distances to.
    static func compare(_ items: [[String: Any]], with stored: [String: (azimuth: Double, km: Double)]) throws {
        let range = 50.0
        let shown = Dictionary(
            items.compactMap { item in (item["icao"] as? String).map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
        #expect(shown.count >= 10, "only \(shown.count) aircraft rewound")
        var worstDegrees = 0.0
        var worstShare = 0.0
        for (hex, place) in stored where place.km < range * 0.995 {
            #expect(shown[hex] != nil, "\(hex) is stored at \(place) but not shown")
        }
        for (hex, item) in shown {
            guard let place = stored[hex] else {
                Issue.record("\(hex) is shown but the store has no position for it then")
                continue
            }
            let azimuth = try #require(item["azimuthDeg"] as? Double)
            let km = try #require(item["distanceKm"] as? Double)
            let degrees = abs((azimuth - place.azimuth + 540).truncatingRemainder(dividingBy: 360) - 180)
            let share = abs(km - place.km) / max(place.km, 0.1)
            worstDegrees = max(worstDegrees, place.km > 1 ? degrees : 0)
            worstShare = max(worstShare, share)
            #expect(place.km < 1 || degrees <= 0.3, "\(hex): bearing \(azimuth)°, stored \(place.azimuth)°")
            #expect(abs(km - place.km) <= 0.004 * place.km + 0.01, "\(hex): \(km) km, stored \(place.km) km")
        }
        print(
            "browser rewind: \(shown.count) aircraft against the store's positions, worst \(String(format: "%.3f", worstDegrees))° "
                + "and \(String(format: "%.2f", worstShare * 100))% of the distance")
    }
}
