import Foundation
import Identity
import ModeS
import Pipeline
import TestSupport
import Testing
import Tracking

@testable import Outputs

@Suite struct AircraftJSONWriterTests {
    /// The aircraft fields dump1090-fa and readsb document (README-json) that this writer may
    /// emit, with the JSON type each must have; `r_dst` and `r_dir` are readsb's distance and
    /// bearing from the receiver.
    static let documentedFields: [String: String] = [
        "hex": "string", "type": "string", "flight": "string", "alt_baro": "number|ground", "alt_geom": "number",
        "gs": "number", "ias": "number", "tas": "number", "mach": "number", "wd": "number", "ws": "number",
        "oat": "number", "tat": "number", "track": "number", "track_rate": "number", "roll": "number",
        "mag_heading": "number", "true_heading": "number", "baro_rate": "number", "geom_rate": "number",
        "squawk": "string", "emergency": "string", "category": "string", "nav_qnh": "number",
        "nav_altitude_mcp": "number", "nav_altitude_fms": "number", "nav_heading": "number", "nav_modes": "array",
        "lat": "number", "lon": "number", "nic": "number", "rc": "number", "seen_pos": "number",
        "r_dst": "number", "r_dir": "number", "version": "number", "nic_baro": "number", "nac_p": "number",
        "nac_v": "number", "sil": "number", "sil_type": "string", "gva": "number", "sda": "number",
        "alert": "number", "spi": "number", "seen": "number", "messages": "number", "rssi": "number",
        "mlat": "array", "tisb": "array", "r": "string", "t": "string", "desc": "string", "ownOp": "string",
        "year": "string", "dbFlags": "number"
    ]

    static let emergencies: Set<String> = [
        "none", "general", "lifeguard", "minfuel", "nordo", "unlawful", "downed", "reserved"
    ]

    static func temporaryDirectory() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aircraft-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let now = 1_763_000_000.0

    static var sky: [AircraftState] {
        var full = AircraftState(icao: 0x4840D6, lastSeen: now - 0.4, source: .adsb)
        full.callsign = "KLM1023"
        full.category = "A3"
        full.squawk = "7700"
        full.position = GeoPoint(latitude: 52.257202, longitude: 3.919373)
        full.positionTime = now - 1.25
        full.altitudeBaroFt = 38000
        full.altitudeGeoFt = 38550
        full.groundSpeedKt = 159.2
        full.trackDeg = 182.88
        full.baroRateFpm = -832
        full.geomRateFpm = -800
        full.verticalRateFpm = -832
        full.indicatedAirspeedKt = 151
        full.trueAirspeedKt = 160
        full.mach = 0.244
        full.magneticHeadingDeg = 181.05
        full.rollDeg = -1.4
        full.trackRateDegPerS = 0.03
        full.navQNHHpa = 1013.6
        full.navAltitudeMCPFt = 4000
        full.navAltitudeFMSFt = 4992
        full.navHeadingDeg = 182.81
        full.navModes = [.autopilot, .vnav, .lnav]
        full.nic = 8
        full.radiusOfContainmentM = 186
        full.adsbVersion = 2
        full.nicBaro = 1
        full.nacP = 9
        full.nacV = 1
        full.sil = 3
        full.silPerSample = false
        full.gva = 2
        full.sda = 2
        full.alert = false
        full.spi = true
        full.onGround = false
        full.emergency = 1
        full.messageCount = 321

        var taxiing = AircraftState(icao: 0x0A1B2C, lastSeen: now - 3, source: .adsb)
        taxiing.onGround = true
        taxiing.altitudeBaroFt = 0
        taxiing.position = GeoPoint(latitude: -33.9461, longitude: -151.1772)
        taxiing.positionTime = now - 3
        taxiing.callsign = "QFA1"
        taxiing.messageCount = 12

        var stale = AircraftState(icao: 0x00_0042, lastSeen: now - 2, source: .modeS)
        stale.position = GeoPoint(latitude: 10, longitude: 10)
        stale.positionTime = now - Tracker.staleAfter - 5
        stale.messageCount = 2
        return [full, taxiing, stale]
    }

    static func parse(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aircraftJSONHasTheDocumentedFieldsAndTypes() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = AircraftJSONWriter(directory: folder.path)
        let rssi: [UInt32: Double] = [0x4840D6: -12.34, 0x0A1B2C: -30]
        let sky = Self.sky.map { plane in
            var plane = plane
            if let level = rssi[plane.icao] { plane.signal.record(dBFS: level) }
            return plane
        }
        try writer.writeAircraft(now: Self.now, messages: 9876, aircraft: sky)

        let root = try Self.parse(try Data(contentsOf: folder.appendingPathComponent("aircraft.json")))
        #expect(Set(root.keys) == ["now", "messages", "aircraft"])
        #expect(root["now"] as? Double == Self.now)
        #expect(root["messages"] as? Int == 9876)
        let aircraft = try #require(root["aircraft"] as? [[String: Any]])
        try #require(aircraft.count == Self.sky.count)

        for (object, state) in zip(aircraft, Self.sky) {
            for (key, value) in object {
                let type = try #require(Self.documentedFields[key], "undocumented field \(key)")
                switch value {
                case is String:
                    #expect(type == "string" || (type == "number|ground" && value as? String == "ground"), "\(key)")
                case is [Any]: #expect(type == "array", "\(key)")
                case is NSNumber: #expect(type.hasPrefix("number"), "\(key)")
                default: Issue.record("unexpected value of \(key): \(value)")
                }
            }
            let hex = try #require(object["hex"] as? String)
            #expect(hex.count == 6 && hex.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(hex == state.icaoHex)
            if let callsign = state.callsign {
                let flight = try #require(object["flight"] as? String)
                #expect(flight.count == 8 && flight.trimmingCharacters(in: .whitespaces) == callsign)
            } else {
                #expect(object["flight"] == nil)
            }
            if state.onGround == true {
                #expect(object["alt_baro"] as? String == "ground")
            } else {
                #expect(object["alt_baro"] as? Int == state.altitudeBaroFt)
            }
            #expect(object["alt_geom"] as? Int == state.altitudeGeoFt)
            #expect(object["baro_rate"] as? Int == state.baroRateFpm)
            #expect(object["geom_rate"] as? Int == state.geomRateFpm)
            #expect(object["ias"] as? Int == state.indicatedAirspeedKt)
            #expect(object["tas"] as? Int == state.trueAirspeedKt)
            #expect(object["mach"] as? Double == state.mach)
            #expect(object["mag_heading"] as? Double == state.magneticHeadingDeg)
            #expect(object["roll"] as? Double == state.rollDeg)
            #expect(object["track_rate"] as? Double == state.trackRateDegPerS)
            #expect(object["nav_qnh"] as? Double == state.navQNHHpa)
            #expect(object["nav_altitude_mcp"] as? Int == state.navAltitudeMCPFt)
            #expect(object["nav_altitude_fms"] as? Int == state.navAltitudeFMSFt)
            #expect(object["nav_heading"] as? Double == state.navHeadingDeg)
            #expect(object["nav_modes"] as? [String] == state.navModes?.names)
            #expect(object["nic"] as? Int == state.nic)
            #expect(object["rc"] as? Int == state.radiusOfContainmentM)
            #expect(object["version"] as? Int == state.adsbVersion)
            #expect(object["nic_baro"] as? Int == state.nicBaro)
            #expect(object["nac_p"] as? Int == state.nacP)
            #expect(object["nac_v"] as? Int == state.nacV)
            #expect(object["sil"] as? Int == state.sil)
            #expect(object["sil_type"] as? String == state.silPerSample.map { $0 ? "persample" : "perhour" })
            #expect(object["gva"] as? Int == state.gva)
            #expect(object["sda"] as? Int == state.sda)
            #expect(object["alert"] as? Int == state.alert.map { $0 ? 1 : 0 })
            #expect(object["spi"] as? Int == state.spi.map { $0 ? 1 : 0 })
            #expect(object["squawk"] as? String == state.squawk)
            #expect(object["category"] as? String == state.category)
            #expect(object["messages"] as? Int == state.messageCount)
            let seen = try #require(object["seen"] as? Double)
            #expect(abs(seen - (Self.now - state.lastSeen)) <= 0.05)
            if let gs = state.groundSpeedKt { #expect(abs(try #require(object["gs"] as? Double) - gs) <= 0.05) }
            if let track = state.trackDeg { #expect(abs(try #require(object["track"] as? Double) - track) <= 0.05) }
            if let level = rssi[state.icao] {
                #expect(abs(try #require(object["rssi"] as? Double) - level) <= 0.05)
            } else {
                #expect(object["rssi"] == nil)
            }
            if let emergency = object["emergency"] as? String { #expect(Self.emergencies.contains(emergency)) }

            if let position = state.position, !state.positionIsStale(at: Self.now) {
                #expect(abs(try #require(object["lat"] as? Double) - position.latitude) < 1e-6)
                #expect(abs(try #require(object["lon"] as? Double) - position.longitude) < 1e-6)
                let seenPos = try #require(object["seen_pos"] as? Double)
                #expect(abs(seenPos - (Self.now - state.positionTime!)) <= 0.051)
            } else {
                #expect(
                    object["lat"] == nil && object["lon"] == nil && object["seen_pos"] == nil, "stale position left out"
                )
            }
        }
        #expect(aircraft[0]["emergency"] as? String == "general")
        #expect(aircraft[0]["nav_modes"] as? [String] == ["autopilot", "vnav", "lnav"])
        #expect(aircraft[0]["sil_type"] as? String == "perhour")
        #expect(aircraft[0]["spi"] as? Int == 1)
    }

    @Test func aNonICAOAddressIsWrittenWithATildeAndItsKind() throws {
        var plane = AircraftState(icao: 0x0A1B2C, lastSeen: Self.now, source: .adsb, addressType: .tisbTrackfile)
        plane.callsign = "N123"
        var icao = AircraftState(icao: 0x0A1B2C, lastSeen: Self.now, source: .adsb, addressType: .adsbICAO)
        icao.callsign = "KLM1"
        icao.position = GeoPoint(latitude: 52, longitude: 4)
        icao.positionTime = Self.now
        #expect(plane.key != icao.key)
        plane.signal.record(dBFS: -20)
        icao.signal.record(dBFS: -10)
        let json = AircraftJSONWriter.aircraftJSON(now: Self.now, messages: 2, aircraft: [icao, plane])
        let aircraft = try #require(try Self.parse(Data(json.utf8))["aircraft"] as? [[String: Any]])
        #expect(aircraft.map { $0["hex"] as? String } == ["0a1b2c", "~0a1b2c"])
        #expect(aircraft.map { $0["type"] as? String } == ["adsb_icao", "tisb_trackfile"])
        #expect(aircraft.map { $0["flight"] as? String } == ["KLM1    ", "N123    "])
        #expect(aircraft.map { $0["rssi"] as? Double } == [-10, -20])
    }

    @Test func aTransponderHeardInADSBIsModeSUntilItHoldsAPosition() throws {
        var plane = AircraftState(icao: 0x4840D6, lastSeen: Self.now, source: .adsb, addressType: .adsbICAO)
        plane.callsign = "KLM1"
        func type() throws -> String? {
            let json = AircraftJSONWriter.aircraftJSON(now: Self.now, messages: 1, aircraft: [plane])
            let aircraft = try #require(try Self.parse(Data(json.utf8))["aircraft"] as? [[String: Any]])
            return aircraft.first?["type"] as? String
        }
        #expect(try type() == "mode_s")
        plane.position = GeoPoint(latitude: 52, longitude: 4)
        plane.positionTime = Self.now
        #expect(try type() == "adsb_icao")
        // Other kinds are written as they are, position or not.
        plane.position = nil
        plane.addressType = .adsrICAO
        #expect(try type() == "adsr_icao")
    }

    @Test func distanceAndBearingFromTheReceiverFollowThePosition() throws {
        var plane = AircraftState(icao: 0x4840D6, lastSeen: Self.now, source: .adsb)
        // One degree of latitude due north, then due east along the equator.
        plane.position = GeoPoint(latitude: 1, longitude: 0)
        plane.positionTime = Self.now
        let north = AircraftJSONWriter.object(
            for: plane, now: Self.now, receiver: GeoPoint(latitude: 0, longitude: 0))
        let object = try Self.parse(Data(north.utf8))
        #expect(abs(try #require(object["r_dst"] as? Double) - 60.04) < 0.05)  // 111.2 km in nautical miles
        #expect(object["r_dir"] as? Double == 0)
        plane.position = GeoPoint(latitude: 0, longitude: -1)
        let west = try Self.parse(
            Data(
                AircraftJSONWriter.object(
                    for: plane, now: Self.now,
                    receiver: GeoPoint(latitude: 0, longitude: 0)
                ).utf8))
        #expect(west["r_dir"] as? Double == 270)
        #expect(
            try Self.parse(Data(AircraftJSONWriter.object(for: plane, now: Self.now).utf8))["r_dst"] == nil)
    }

    @Test func receiverJSONCarriesVersionRefreshHistoryAndPosition() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = AircraftJSONWriter(directory: folder.path)
        try writer.writeReceiver(
            version: "aviator-adsb test", refreshMilliseconds: 1000,
            receiver: GeoPoint(latitude: 52.3, longitude: 4.75))
        let receiver = try Self.parse(try Data(contentsOf: folder.appendingPathComponent("receiver.json")))
        #expect(receiver["version"] as? String == "aviator-adsb test")
        #expect(receiver["refresh"] as? Int == 1000)
        #expect(receiver["history"] as? Int == 0)
        #expect(receiver["lat"] as? Double == 52.3)
        #expect(receiver["lon"] as? Double == 4.75)

        try writer.writeReceiver(version: "v", refreshMilliseconds: 500, receiver: nil)
        let anonymous = try Self.parse(try Data(contentsOf: folder.appendingPathComponent("receiver.json")))
        #expect(anonymous["lat"] == nil && anonymous["lon"] == nil)
        #expect(anonymous["refresh"] as? Int == 500)
    }

    @Test func filesAreReplacedByRenameAndNoTemporaryIsLeft() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = AircraftJSONWriter(directory: folder.path)
        let path = folder.appendingPathComponent("aircraft.json").path
        try writer.writeAircraft(now: Self.now, messages: 1, aircraft: Self.sky)
        let firstInode = try #require(
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
        // A reader holding the old file keeps reading the old content: the new one is a new file.
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try writer.writeAircraft(now: Self.now + 1, messages: 2, aircraft: [])
        let secondInode = try #require(
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
        #expect(firstInode != secondInode)
        let old = try Self.parse(reader.readDataToEndOfFile())
        #expect(old["messages"] as? Int == 1)
        try reader.close()
        let new = try Self.parse(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(new["messages"] as? Int == 2)
        #expect((new["aircraft"] as? [Any])?.isEmpty == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(names) == ["aircraft.json"])
    }

    @Test func unusableDirectoriesAreOneLineErrors() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let missing = folder.appendingPathComponent("missing").path
        for (path, reason) in [(missing, "no such directory"), (file.path, "not a directory")] {
            #expect(throws: OutputError.unusableDirectory(path: path, reason: reason)) {
                try AircraftJSONWriter.checkDirectory(path)
            }
        }
        #expect(throws: OutputError.self) {
            try AircraftJSONWriter(directory: missing).writeAircraft(now: 0, messages: 0, aircraft: [])
        }
        try AircraftJSONWriter.checkDirectory(folder.path)
    }

    @Test func publisherWritesTheTrackersAircraft() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracker = WiredTracker(receiver: GeoPoint(latitude: 52.3, longitude: 4.75))
        let frames = try OutputTestFrames.busyAirport()
        let start = Date().timeIntervalSince1970 - 1
        for (frame, time) in frames { tracker.accept(frame, at: start + time) }
        let publisher = AircraftJSONPublisher(
            directory: folder.path, tracker: tracker.tracker, pipeline: tracker.pipeline,
            version: "test"
        ) { Issue.record("write failed: \($0)") }
        try publisher.publishOnce()
        let root = try Self.parse(try Data(contentsOf: folder.appendingPathComponent("aircraft.json")))
        let aircraft = try #require(root["aircraft"] as? [[String: Any]])
        let snapshot = tracker.snapshot().aircraft
        #expect(aircraft.compactMap { $0["hex"] as? String } == snapshot.map(\.icaoHex))
        #expect(root["messages"] as? Int == frames.count)
        #expect(aircraft.allSatisfy { ($0["rssi"] as? Double).map { abs($0 - -20) < 0.05 } == true })
        #expect(aircraft.filter { $0["lat"] != nil }.count > 20)
    }

    @Test func receiverJSONRemovedWhileRunningComesBack() async throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let publisher = AircraftJSONPublisher(
            directory: folder.path, tracker: LiveTracker(receiver: nil),
            pipeline: FramePipeline(receiver: nil, downstream: LiveTracker(receiver: nil)),
            version: "test", interval: .milliseconds(20),
            receiverInterval: .milliseconds(200)
        ) { Issue.record("write failed: \($0)") }
        let running = Task { try await publisher.run() }
        defer { running.cancel() }
        let file = folder.appendingPathComponent("receiver.json").path
        func appears() async throws -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: file), Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            return FileManager.default.fileExists(atPath: file)
        }
        #expect(try await appears())
        // A temporary directory's cleaner (or a person) takes it away: it is written again.
        try FileManager.default.removeItem(atPath: file)
        #expect(try await appears())
    }
}

/// The queue between the receiving thread and the output encoders.
@Suite struct FrameFanoutTests {
    @Test func aFullQueueDropsAndCountsInsteadOfBlocking() throws {
        let tracker = WiredTracker(receiver: nil)
        let fanout = FrameFanout(beast: nil, sbs: nil, avr: nil)
        fanout.attach(to: tracker.pipeline, tracker: tracker.tracker)
        let frame = OutputTestFrames.identityReply(df: 5, icao: 0x4840D6, squawk: "1234")
        let squitter = try #require(OutputTestFrames.busyAirport().first?.frame)
        tracker.accept(squitter, at: 1)
        for index in 0..<(FrameFanout.capacity + 10) { tracker.accept(frame, at: 1 + Double(index) * 1e-6) }
        #expect(fanout.droppedUpdates == 11)
        #expect(fanout.drain() == FrameFanout.capacity)
        #expect(fanout.drain() == 0)
        tracker.accept(frame, at: 2)
        #expect(fanout.drain() == 1)
        #expect(fanout.droppedUpdates == 11)
    }

    @Test func multilaterationResultsAreNeverSentOn() throws {
        let tracker = WiredTracker(receiver: nil)
        let fanout = FrameFanout(beast: nil, sbs: nil, avr: nil)
        fanout.attach(to: tracker.pipeline, tracker: tracker.tracker)
        var frames = try OutputTestFrames.busyAirport().prefix(2).map(\.frame)
        frames[0].isMultilaterated = true
        for frame in frames { tracker.accept(frame, at: tracker.now) }
        #expect(fanout.drain() == 1, "only the frame that was heard is queued")
        // Nor does a computed frame count towards the aircraft's signal level.
        let levels = Dictionary(
            tracker.snapshot().aircraft.map { ($0.icao, $0.signal.meanDBFS) }, uniquingKeysWith: { $1 })
        #expect(levels[frames[0].address] ?? nil == nil || frames[0].address == frames[1].address)
        #expect(levels[frames[1].address] ?? nil != nil)
    }
}

/// The aircraft.json view of multilaterated aircraft.
@Suite struct MultilaterationJSONTests {
    @Test func anMLATAircraftSaysSoAndListsItsFields() throws {
        var plane = AircraftState(icao: 0x485020, lastSeen: 100, source: .mlat)
        plane.position = GeoPoint(latitude: 52, longitude: 4)
        plane.positionTime = 100
        plane.altitudeBaroFt = 3_000
        let tookPosition = plane.fieldSources.accept(.position, from: .mlat, at: 100, timeout: 15)
        let tookAltitude = plane.fieldSources.accept(.altitudeBaro, from: .mlat, at: 100, timeout: 15)
        #expect(tookPosition && tookAltitude)
        let json = AircraftJSONWriter.aircraftJSON(now: 100, messages: 1, aircraft: [plane])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let aircraft = try #require((root["aircraft"] as? [[String: Any]])?.first)
        #expect(aircraft["type"] as? String == "mlat")
        #expect(aircraft["mlat"] as? [String] == ["lat", "lon", "alt_baro"])
    }
}
