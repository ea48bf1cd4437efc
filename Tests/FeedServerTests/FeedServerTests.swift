import FeedProtocol
import Foundation
import ModeS
import TestSupport
import Testing
import Tracking

@testable import FeedServer

@Suite struct FeedServerTests {
    static let aircraftKeys: Set<String> = [
        "icao", "callsign", "lat", "lon", "alt_baro_ft", "alt_geo_ft", "ground_speed_kt", "track_deg",
        "vertical_rate_fpm", "squawk", "category", "on_ground", "seen_s", "seen_pos_s", "stale", "source",
        "azimuth_deg", "elevation_deg", "slant_km", "ground_km", "bearing_deg", "x", "y", "rotation_deg", "scale",
        "route", "identity"
    ]

    /// Binds a server, runs `body` with it while frames flow, then stops it.
    func withServer(
        _ aircraft: [AircraftState], interval: Double = 0.1, path: String = TestSky.socketPath(),
        _ body: (FeedServer, String) async throws -> Void
    ) async throws {
        let configuration = FeedConfiguration(socketPath: path, radar: RadarConfiguration(frameInterval: interval))
        let server = try await FeedServer.bind(configuration: configuration, provider: TestSky.provider(aircraft))
        let running = Task { try await server.run() }
        do {
            try await body(server, path)
        } catch {
            running.cancel()
            _ = await running.result
            throw error
        }
        running.cancel()
        _ = await running.result
    }

    @Test func greetsThenSendsFramesWithAStableSchema() async throws {
        var partial = TestSky.aircraft(icao: 0xABCDEF, latitude: 52.1, longitude: 4.5, altitudeFt: nil)
        partial.callsign = nil
        partial.trackDeg = nil
        partial.squawk = nil
        let sky = [TestSky.aircraft(icao: 0x4840D6, latitude: 52.2, longitude: 4.7, altitudeFt: 19_685), partial]
        try await withServer(sky) { _, path in
            let client = try await SocketTestClient.connect(path: path)
            let lines = await client.waitForLines { $0.count >= 3 }
            let hello = try #require(client.objects(ofType: "hello").first)
            #expect(hello["version"] as? Int == 1)
            #expect(hello["source"] as? String == "test")
            let receiver = try #require(hello["receiver"] as? [String: Any])
            #expect(receiver["lat"] as? Double == 52)
            // The magnetic declination at the receiver (52° N, 4.4° E): a couple of degrees east.
            let declination = try #require(hello["declination_deg"] as? Double)
            #expect(declination > 0 && declination < 5)
            #expect(lines.first?.hasPrefix("{\"type\":\"hello\"") == true)

            let frame = try #require(client.objects(ofType: "frame").first)
            #expect(frame["source"] as? String == "test")
            #expect(frame["heading_deg"] as? Int == 0)
            #expect(frame["range_km"] as? Int == 50)
            let planes = try #require(frame["aircraft"] as? [[String: Any]])
            #expect(planes.count == 2)
            for plane in planes { #expect(Set(plane.keys) == Self.aircraftKeys) }
            let full = try #require(planes.first { $0["icao"] as? String == "4840d6" })
            #expect(full["callsign"] as? String == "TST190")
            #expect(full["source"] as? String == "adsb")
            #expect(full["seen_s"] as? Double == 1)
            #expect(full["stale"] as? Bool == false)
            // 19,685 ft is 6,000 m: the figures of the "heading 0" reference case, rounded.
            #expect(abs((full["azimuth_deg"] as? Double ?? 0) - 42.61) < 0.02)
            #expect(abs((full["ground_km"] as? Double ?? 0) - 30.3) < 0.01)
            #expect(full["rotation_deg"] as? Int == 90)
            let unknown = try #require(planes.first { $0["icao"] as? String == "abcdef" })
            for key in ["callsign", "alt_baro_ft", "elevation_deg", "slant_km", "rotation_deg", "scale", "squawk"] {
                #expect(unknown[key] is NSNull, "\(key) should be null")
            }
            #expect(unknown["azimuth_deg"] is NSNumber)
            await client.close()
        }
    }

    @Test func framesCountUpWithoutGaps() async throws {
        try await withServer(TestSky.crowd(5), interval: 0.05) { _, path in
            let client = try await SocketTestClient.connect(path: path)
            await client.waitForLines { $0.count >= 12 }
            let seqs = client.objects(ofType: "frame").compactMap { $0["seq"] as? Int }
            #expect(seqs.count >= 10)
            #expect(seqs == Array(seqs.first!..<(seqs.first! + seqs.count)))
            await client.close()
        }
    }

    @Test func viewCommandsChangeOnlyThatClientsFrames() async throws {
        let sky = [
            TestSky.aircraft(icao: 0x4840D6, latitude: 52.2, longitude: 4.7, altitudeFt: 19_685),
            TestSky.aircraft(icao: 0x4840D7, latitude: 52.01, longitude: 4.41, altitudeFt: 0, onGround: true),
            TestSky.aircraft(icao: 0x4840D8, latitude: 52.9, longitude: 4.4, altitudeFt: 35_000)
        ]
        try await withServer(sky) { _, path in
            let turned = try await SocketTestClient.connect(path: path)
            let plain = try await SocketTestClient.connect(path: path)
            try await turned.sendLine(#"{"type":"view","heading_deg":90,"range_km":40,"hide_on_ground":true}"#)
            let lines = await turned.waitForLines { lines in
                guard let ack = lines.firstIndex(where: { $0.contains("\"type\":\"view\"") }) else { return false }
                return lines[ack...].contains { $0.hasPrefix("{\"type\":\"frame\"") }
            }
            let ackIndex = try #require(lines.firstIndex { $0.contains("\"type\":\"view\"") })
            #expect(lines[ackIndex].contains("\"heading_deg\":90,\"range_km\":40"))
            let after = try #require(lines[ackIndex...].first { $0.hasPrefix("{\"type\":\"frame\"") })
            let frame = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])
            #expect(frame["heading_deg"] as? Int == 90)
            #expect(frame["range_km"] as? Int == 40)
            let planes = try #require(frame["aircraft"] as? [[String: Any]])
            // The one on the ground is hidden and the one 100 km north is beyond 40 km.
            #expect(planes.map { $0["icao"] as? String } == ["4840d6"])
            #expect(abs((planes[0]["bearing_deg"] as? Double ?? 0) - 312.61) < 0.02)
            #expect(planes[0]["rotation_deg"] as? Int == 0)

            await plain.waitForLines { $0.count >= 3 }
            let plainFrame = try #require(plain.objects(ofType: "frame").last)
            #expect(plainFrame["heading_deg"] as? Int == 0)
            #expect((plainFrame["aircraft"] as? [Any])?.count == 2)
            await turned.close()
            await plain.close()
        }
    }

    @Test func badCommandsGetErrorsAndTheConnectionStays() async throws {
        try await withServer(TestSky.crowd(2)) { server, path in
            let client = try await SocketTestClient.connect(path: path)
            let commands = [
                "this is not json",
                #"["view"]"#,
                #"{"heading_deg":10}"#,
                #"{"type":"zoom"}"#,
                #"{"type":"view","heading_deg":400}"#,
                #"{"type":"view","range_km":0}"#,
                #"{"type":"view","min_alt_ft":5000,"max_alt_ft":1000}"#,
                #"{"type":"view","rang_km":10}"#,
                #"{"type":"view","heading_deg":"north"}"#,
                "{\"type\":\"view\",\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}"
            ]
            for command in commands { try await client.sendLine(command) }
            try await client.sendLine(#"{"type":"view","heading_deg":180}"#)
            await client.waitForLines { lines in lines.contains { $0.hasPrefix("{\"type\":\"view\"") } }
            let errors = client.objects(ofType: "error").compactMap { $0["message"] as? String }
            #expect(errors.count == commands.count)
            let expected = [
                "invalid JSON", "must be a JSON object", "no \"type\" field", "unknown command type \"zoom\"",
                "heading_deg must be between 0 and 360, got 400", "range_km must be between 0.1 and 1000",
                "is above max_alt_ft", "unknown field \"rang_km\"", "heading_deg must be a number, got a string",
                "command longer than 4096 bytes"
            ]
            for (message, fragment) in zip(errors, expected) {
                #expect(message.contains(fragment), "\(message)")
            }
            #expect(!client.isClosed)
            let acks = client.objects(ofType: "view")
            #expect((acks.last?["view"] as? [String: Any])?["heading_deg"] as? Int == 180)
            #expect(await server.statistics().commandsRejected == UInt64(commands.count))
            await client.close()
        }
    }

    @Test func socketIsGroupAccessibleAndRemovedOnExit() async throws {
        let path = TestSky.socketPath()
        try await withServer(TestSky.crowd(1), path: path) { _, _ in
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o660)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aLiveSocketIsRefused() async throws {
        try await withServer(TestSky.crowd(1)) { _, path in
            await #expect(throws: FeedError.alreadyServing(path: path)) {
                _ = try await FeedServer.bind(
                    configuration: FeedConfiguration(socketPath: path),
                    provider: TestSky.provider([]))
            }
            #expect(
                FeedError.alreadyServing(path: path).description == "another aviator-adsb is already serving \(path)")
            // The first server is unharmed.
            let client = try await SocketTestClient.connect(path: path)
            await client.waitForLines { $0.count >= 2 }
            #expect(client.lines.count >= 2)
            await client.close()
        }
    }

    @Test func aStaleSocketIsReplaced() async throws {
        let path = TestSky.socketPath()
        try StaleSocket.make(at: path)
        #expect(FileManager.default.fileExists(atPath: path))
        try await withServer(TestSky.crowd(1), path: path) { _, _ in
            let client = try await SocketTestClient.connect(path: path)
            await client.waitForLines { $0.count >= 2 }
            #expect(client.lines.first?.hasPrefix("{\"type\":\"hello\"") == true)
            await client.close()
        }
    }

    @Test func missingDirectoryAndOtherFilesAreClearErrors() async throws {
        let missing = "/tmp/no-such-dir-\(UUID().uuidString.prefix(8))/feed.sock"
        await #expect(throws: FeedError.self) {
            _ = try await FeedServer.bind(
                configuration: FeedConfiguration(socketPath: missing), provider: TestSky.provider([]))
        }
        do {
            try SocketPath.prepare(missing)
        } catch {
            #expect(error.description.contains("does not exist"))
        }
        let file = TestSky.socketPath()
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: FeedError.notASocket(path: file)) { try SocketPath.prepare(file) }
        #expect(FileManager.default.fileExists(atPath: file))
        let long = "/tmp/" + String(repeating: "a", count: 200) + ".sock"
        #expect(throws: FeedError.pathTooLong(path: long, limit: SocketPath.maxLength)) { try SocketPath.prepare(long) }
    }

    @Test func defaultPathFollowsTheRuntimeDirectory() {
        #expect(
            SocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
                == "/run/user/1000/aviator-adsb.sock")
        #expect(SocketPath.privateDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == nil)
        // Without it, never directly in a directory every user can write to.
        #expect(
            SocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": ""], user: 1000)
                == "/tmp/aviator-adsb-1000/radar.sock")
        #expect(
            SocketPath.defaultPath(environment: ["TMPDIR": "/var/tmp"], user: 0) == "/var/tmp/aviator-adsb-0/radar.sock"
        )
        #expect(SocketPath.privateDirectory(environment: [:], user: 7) == "/tmp/aviator-adsb-7")
    }

    @Test func aClientThatStopsReadingIsDisconnected() async throws {
        // Big frames fill the socket buffers within a few intervals; 2 s without reading cuts
        // the sleeper off and spares a reader that a loaded machine holds up for a moment.
        let configuration = FeedConfiguration(
            socketPath: TestSky.socketPath(),
            radar: RadarConfiguration(rangeKm: 200, frameInterval: 0.05), stallTimeout: 2)
        let server = try await FeedServer.bind(
            configuration: configuration, provider: TestSky.provider(TestSky.crowd(300)))
        let running = Task { try await server.run() }
        let sleeper = try await SocketTestClient.connect(path: configuration.socketPath, reading: false)
        let reader = try await SocketTestClient.connect(path: configuration.socketPath, keep: .frameHeaders)
        let deadline = Date().addingTimeInterval(30)
        while await server.statistics().clientsStalled == 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let statistics = await server.statistics()
        #expect(statistics.clientsStalled == 1)
        #expect(statistics.clients == 1)
        // The reader carries on regardless.
        let more = Date().addingTimeInterval(30)
        while reader.state.withLockedValue({ $0.frames.count }) < 20, Date() < more {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!reader.isClosed)
        let frames = reader.state.withLockedValue { $0.frames.map(\.seq) }
        #expect(frames.count >= 20)
        // In order; at 20 frames a second of 300 aircraft a busy machine may make even this
        // reader skip a frame, which is the designed behaviour for a slow reader.
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 })
        running.cancel()
        _ = await running.result
        await sleeper.close()
        await reader.close()
    }
}

/// Leaves a socket file behind the way a crashed daemon would: bound, listened, closed, not
/// removed.
enum StaleSocket {
    static func make(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.EADDRINUSE) }
    }
}

@Suite struct FeedBindErrorTests {
    @Test func aFailedBindIsOneClearLine() async throws {
        // Nobody, not even root, can create a socket in /proc.
        do {
            _ = try await FeedServer.bind(
                configuration: FeedConfiguration(socketPath: "/proc/aviator.sock"),
                provider: TestSky.provider([]))
            Issue.record("bound a socket in /proc")
        } catch let error as FeedError {
            #expect(error.description.hasPrefix("feed socket /proc/aviator.sock: bind failed: "))
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("errno"))
        }
    }
}
