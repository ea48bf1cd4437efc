import Foundation
import TestSupport
import Testing

/// Kid mode's silhouettes in a real browser: the daemon replays the busy sample with the
/// identity store and a small aircraft database that makes some of its aircraft helicopters,
/// balloons and gliders; headless Chromium opens kid mode (scripts/webapp_kid.py). Every
/// aircraft drawn on the scope and in the sky view must carry the silhouette of its class
/// (silhouettes.js), and at least four different ones must be drawn on the scope.
@Suite(.serialized, .tags(.slow)) struct WebAppKidSilhouetteTests {
    /// The type each of some aircraft is given, by its place in the sorted truth: every sixth
    /// a helicopter, the next a balloon, the next a glider.
    static let types = [0: "R44", 1: "BALL", 2: "GLID"]
    /// Their silhouettes.
    static let silhouetteOfType = ["R44": "helicopter", "BALL": "balloon", "GLID": "glider"]
    /// The silhouette of an emitter category, for aircraft without a type.
    static let silhouetteOfCategory = ["A1": "prop", "A2": "smalljet", "A3": "jet", "A4": "jet", "A5": "widebody"]

    @Test(.requires(.program("chromium"))) func eachClassHasItsOwnSilhouette() async throws {
        guard HeadlessBrowser.available() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-kid-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = BinaryRunner.projectRoot
        let recording = root.appendingPathComponent("Samples/busy-airport.cu8")
        let categories = try Self.categories(ofTruthOf: recording)
        let expectedType = Self.assignedTypes(Array(categories.keys))
        let database = folder.appendingPathComponent("aircraft.csv.gz")
        let rows = expectedType.sorted { $0.key < $1.key }.map { "\($0.key);;\($0.value);;;;;" }
        try TestAircraftDatabase.writeCompressed(rows.joined(separator: "\n") + "\n", to: database)

        let daemon = try Daemon([
            "--replay", recording.path, "--throttle", "--loop", "--receiver", "52.3,4.75", "--http", "127.0.0.1:0",
            "--identity-store", root.appendingPathComponent("data/identity-store.gz").path, "--db-file", database.path
        ])
        defer { _ = daemon.stop() }
        let port = try WebEndToEndTests.webPort(of: daemon)
        // The identity data loads on a thread of its own (the store in seconds in a debug build).
        try #require(daemon.waitFor("identity store", timeout: 90), "\(daemon.stderr)")
        try #require(daemon.waitFor("aircraft database", timeout: 30), "\(daemon.stderr)")
        let screenshots =
            ProcessInfo.processInfo.environment["WEB_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? folder.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let report = try await HeadlessBrowser.run(
            ["kid", "http://127.0.0.1:\(port)/", "--lat", "52.3", "--lon", "4.75", "--screenshots", screenshots.path])

        #expect(report["failure"] == nil, "\(report["failure"] ?? "")")
        let problems = report["problems"] as? [String] ?? ["no console report"]
        #expect(problems.isEmpty, "console errors or CSP violations: \(problems)")
        let scope = try #require(report["scope"] as? [String: Any])
        let sky = try #require(report["sky"] as? [String: Any])
        let drawn = try Self.check(scope: scope, sky: sky, categories: categories, types: expectedType)
        for name in ["kid-silhouettes.png", "kid-silhouettes-sky.png"] {
            let shot = try #require(FileManager.default.contents(atPath: screenshots.appendingPathComponent(name).path))
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]) && shot.count > 10_000, "\(name)")
        }
        print(
            "kid silhouettes: scope \(drawn), sky view \(sky["silhouettes"] ?? [:]); screenshots in \(screenshots.path)"
        )
    }

    /// Checks what the page drew: on the scope at least ten aircraft and at least four
    /// different silhouettes, in the sky view at least three markers; everywhere each
    /// aircraft's silhouette the one of its class. Returns the scope's tally.
    static func check(
        scope: [String: Any], sky: [String: Any], categories: [String: String], types: [String: String]
    ) throws -> [String: Int] {
        let tally = try #require(scope["silhouettes"] as? [String: Int])
        let drawn = try #require(scope["drawn"] as? [[String: Any]])
        #expect(drawn.count >= 10, "\(drawn.count) aircraft drawn on the scope")
        #expect(tally.keys.filter { $0 != "null" }.count >= 4, "silhouettes on the scope: \(tally)")
        let markers = try #require(sky["markers"] as? [[String: Any]])
        #expect(markers.count >= 3, "markers in the sky view: \(markers.count)")
        for (place, aircraft) in [("scope", drawn), ("sky view", markers)] {
            for plane in aircraft {
                let icao = try #require(plane["icao"] as? String)
                expectSilhouette(plane["silhouette"] as? String, of: icao, in: place, categories, types)
            }
        }
        return tally
    }

    /// An aircraft's silhouette must be its type's (the database's), or else its emitter
    /// category's: the one of the recording's truth, or the fighter (an address the identity
    /// store knows as military), or the jet, the default, for an aircraft whose identification
    /// message (which carries the category) is not in the recording's 0.8 s.
    static func expectSilhouette(
        _ silhouette: String?, of icao: String, in place: String, _ categories: [String: String],
        _ types: [String: String]
    ) {
        let kind = types[icao] ?? categories[icao] ?? "unknown"
        if let type = types[icao] {
            #expect(
                silhouette == silhouetteOfType[type], "\(place): \(icao), a \(kind), drawn as \(silhouette ?? "none")")
        } else if let category = categories[icao], let expected = silhouetteOfCategory[category] {
            #expect(
                silhouette == expected || silhouette == "fighter" || silhouette == "jet",
                "\(place): \(icao), \(kind), drawn as \(silhouette ?? "none")")
        } else {
            #expect(silhouette != nil, "\(place): \(icao) drawn without a silhouette")
        }
    }

    /// The emitter category of each address of `recording`'s truth.
    static func categories(ofTruthOf recording: URL) throws -> [String: String] {
        let truth = try String(contentsOf: URL(fileURLWithPath: recording.path + ".truth.jsonl"), encoding: .utf8)
        var categories: [String: String] = [:]
        for line in truth.split(separator: "\n") where line.hasPrefix("{\"type\":\"state\"") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let icao = object?["icao"] as? String, let category = object?["category"] as? String {
                categories[icao.lowercased()] = category
            }
        }
        return categories
    }

    /// The type each address is given (`types`), by its place among the sorted addresses.
    static func assignedTypes(_ addresses: [String]) -> [String: String] {
        var assigned: [String: String] = [:]
        for (index, address) in addresses.sorted().enumerated() {
            if let type = types[index % 6] { assigned[address] = type }
        }
        return assigned
    }
}
