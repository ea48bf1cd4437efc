import Foundation
import ModeS
import TestSupport
import Testing

extension EndToEnd {
    /// Interoperability with readsb, the decoder tar1090, graphs1090 and the feeders are used
    /// with: it reads our Beast output, and its aircraft.json must agree with ours aircraft by
    /// aircraft and field by field, RSSI included (which tests the signal level and the Beast
    /// signal byte together).
    @Suite(.tags(.slow)) struct ReadsbInteropTests {
        static let receiver = (52.3, 4.75)

        /// Fields readsb works out from things we do not have: `true_heading` (and from it `wd`
        /// and `ws`) turns a magnetic heading into a true one with the world magnetic model,
        /// and `calc_track` is its own track estimate from successive positions.
        static let derivedByReadsbAlone: Set<String> = ["true_heading", "wd", "ws", "calc_track"]
        /// Fields about the moment of reading, compared apart or not at all.
        static let momentary: Set<String> = ["hex", "type", "seen", "seen_pos", "messages", "rssi"]
        /// Fields from Comm-B registers, which a reply does not name: each decoder infers the
        /// register from the content, and a reply that fits two registers is left out by one
        /// decoder and read by the other. These must be present for most aircraft, not all.
        static let inferredCommB: Set<String> = ["roll", "tas", "track_rate", "mag_heading", "ias", "mach"]

        /// The comparison of two aircraft.json files written from the same frames.
        struct Comparison {
            var aircraft = 0
            var matched: [String: Int] = [:]
            var commBMissing: [String: Int] = [:]
            var commBPresent: [String: Int] = [:]
            var gnssHeightConvention = 0
            /// Aircraft that report GNSS height in their positions (type codes 20–22): we read
            /// those 12 bits as metres (as pyModeS does), readsb as a 25 ft altitude code, so
            /// their `alt_geom` differs by design.
            let gnssHeights: Set<String>
            var rssiDifferences: [Double] = []
            var problems: [String] = []

            /// Compares `ours` with `theirs` (readsb's): both must know the same aircraft
            /// (heard at least twice), and the fields and signal of each heard at least eight
            /// times must agree. An aircraft at the edge of reach, of which a few positions
            /// came through, has sent no status yet that readsb's defaults could be compared
            /// with, and its level is the mean of a handful of replies near the noise.
            init(ours: AircraftFile, theirs: AircraftFile, gnssHeights: Set<String>) {
                self.gnssHeights = gnssHeights
                func wellHeard(_ file: AircraftFile) -> Set<String> {
                    Set(file.aircraft.filter { ($0.value["messages"] as? Int ?? 0) >= 8 }.keys)
                }
                let common = wellHeard(ours).intersection(wellHeard(theirs))
                if ours.confirmed != theirs.confirmed {
                    problems.append(
                        "aircraft only ours: \(ours.confirmed.subtracting(theirs.confirmed).sorted()); "
                            + "only readsb's: \(theirs.confirmed.subtracting(ours.confirmed).sorted())")
                }
                aircraft = common.count
                for hex in common.sorted() {
                    compare(hex, ours.aircraft[hex]!, theirs.aircraft[hex]!)
                }
            }

            private mutating func compare(_ hex: String, _ mine: [String: Any], _ peer: [String: Any]) {
                if mine["type"] as? String != peer["type"] as? String {
                    problems.append("\(hex) type \(mine["type"] ?? "none") vs \(peer["type"] ?? "none")")
                }
                if let level = mine["rssi"] as? Double, let peerLevel = peer["rssi"] as? Double {
                    rssiDifferences.append(level - peerLevel)
                }
                for (key, value) in peer where !derivedByReadsbAlone.contains(key) && !momentary.contains(key) {
                    // Ground speed and track come from a Comm-B 5,0 report too, when there is
                    // no ADS-B velocity: then they follow that report's inference.
                    let fromCommB = ["gs", "track"].contains(key) && peer["roll"] != nil && mine["roll"] == nil
                    let isCommB = inferredCommB.contains(key) || fromCommB
                    guard let mineValue = mine[key] else {
                        if isCommB {
                            commBMissing[key, default: 0] += 1
                        } else {
                            problems.append("\(hex) lacks \(key) (readsb: \(value))")
                        }
                        continue
                    }
                    if isCommB { commBPresent[key, default: 0] += 1 }
                    if Self.same(key, mineValue, value) {
                        matched[key, default: 0] += 1
                    } else if key == "alt_geom", gnssHeights.contains(hex) {
                        gnssHeightConvention += 1
                    } else {
                        problems.append("\(hex) \(key): ours \(mineValue), readsb \(value)")
                    }
                }
            }

            /// Equal as readsb writes it: numbers within the rounding of either side (angles
            /// across north, surface speeds within their coarsest step), everything else exactly.
            static func same(_ key: String, _ a: Any, _ b: Any) -> Bool {
                guard let x = (a as? NSNumber)?.doubleValue, let y = (b as? NSNumber)?.doubleValue,
                    !(a is String), !(b is String)
                else {
                    return "\(a)" == "\(b)"
                }
                switch key {
                case "track", "nav_heading", "mag_heading", "r_dir":
                    let difference = abs(x - y).truncatingRemainder(dividingBy: 360)
                    return min(difference, 360 - difference) <= 0.11
                case "gs": return abs(x - y) <= 0.55
                // Pressure altitude plus the latest GNSS difference, each side at the moment it
                // last heard one of the two: one 25 ft step apart at most.
                case "alt_geom": return abs(x - y) <= 25
                case "r_dst": return abs(x - y) <= max(0.005 * abs(y), 0.01)
                case "lat", "lon": return abs(x - y) <= 2e-6
                default: return abs(x - y) <= 0.011
                }
            }

            var rssiMedian: Double {
                let sorted = rssiDifferences.sorted()
                return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
            }
        }

        /// Reads `directory`/stats.json as graphs1090 does: the keys it reads are there, and the
        /// totals count `samples` samples and `messages` messages.
        static func expectStatsForGraphs1090(
            in directory: URL, samples: Int, messages: Int,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let data = try Data(contentsOf: directory.appendingPathComponent("stats.json"))
            let stats = try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: Any], sourceLocation: sourceLocation)
            let last1min = try #require(stats["last1min"] as? [String: Any], sourceLocation: sourceLocation)
            let recent = try #require(last1min["local"] as? [String: Any], sourceLocation: sourceLocation)
            #expect(
                last1min["end"] is Double && recent["signal"] is Double && recent["noise"] is Double,
                sourceLocation: sourceLocation)
            let total = try #require(stats["total"] as? [String: Any], sourceLocation: sourceLocation)
            let local = try #require(total["local"] as? [String: Any], sourceLocation: sourceLocation)
            #expect(local["samples_processed"] as? Int == samples, sourceLocation: sourceLocation)
            #expect((local["accepted"] as? [Int])?.reduce(0, +) == messages, sourceLocation: sourceLocation)
            #expect(local["strong_signals"] is Int && local["peak_signal"] is Double, sourceLocation: sourceLocation)
            let cpr = try #require(total["cpr"] as? [String: Any], sourceLocation: sourceLocation)
            #expect(
                ((cpr["global_ok"] as? Int) ?? 0) + ((cpr["local_ok"] as? Int) ?? 0) > 0, sourceLocation: sourceLocation
            )
            let tracks = try #require(total["tracks"] as? [String: Any], sourceLocation: sourceLocation)
            #expect(tracks["all"] is Int && tracks["single_message"] is Int, sourceLocation: sourceLocation)
            #expect((total["cpu"] as? [String: Int])?.isEmpty == false, sourceLocation: sourceLocation)
            #expect(total["messages"] as? Int == messages, sourceLocation: sourceLocation)
            for period in ["last5min", "last15min"] {
                #expect(stats[period] is [String: Any], sourceLocation: sourceLocation)
            }
        }

        /// The addresses that sent positions with GNSS height (type codes 20–22), from the
        /// recording's truth.
        static func gnssHeightReporters(_ recording: URL) throws -> Set<String> {
            let truth = try String(contentsOf: URL(fileURLWithPath: recording.path + ".truth.jsonl"), encoding: .utf8)
            var reporters = Set<String>()
            for line in truth.split(separator: "\n") where line.hasPrefix("{\"type\":\"message\"") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let hex = object["hex"] as? String, let bits = ModeSBits(hex: hex)
                else { continue }
                let message = MessageDecoder().decode(Frame(bits: bits, address: UInt32(bits.field(9, 32))))
                if message.df == 17, let typeCode = message.typeCode, (20...22).contains(typeCode) {
                    reporters.insert(message.icaoHex)
                }
            }
            return reporters
        }

        /// Replays a simulated sky at real-time pace; readsb reads our Beast output. Both
        /// aircraft.json files must list the same aircraft with the same `type`, RSSI within
        /// 1 dB, and every field readsb writes that we decode present with the same value.
        @Test(.requires(.shared("peers/readsb")), .timeLimit(.minutes(3)))
        func readsbSeesOurSkyAsWeDo() throws {
            guard let peerPath = ReadsbPeer.path() else { return }
            // The same layout as the dump1090 interop tests: ours/ and theirs/ in one folder.
            let (folder, ours, theirs) = try Dump1090InteropTests.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Eight seconds of an ordinary sky, long enough for every aircraft to send
            // positions, velocities and status several times (a looped recording would jump
            // back in time, which readsb's position checks rightly refuse).
            let recording = try BinaryRunner.simulate(
                into: folder,
                arguments: [
                    "--duration", "8", "--aircraft", "40", "--seed", "1090", "--receiver", "52.3,4.75"
                ])

            let beastPort = BlockingSocket.freePorts(1)[0]
            let input = Pipe()
            let daemon = try Daemon(
                [
                    "--replay", "-", "--throttle", "--receiver", "52.3,4.75", "--beast-out", String(beastPort),
                    "--json-dir", ours.path, "--socket", folder.appendingPathComponent("feed.sock").path
                ],
                standardInput: input)
            defer { _ = daemon.stop() }
            try #require(daemon.waitFor("Beast output on 127.0.0.1:\(beastPort)"), "\(daemon.stderr)")
            let peer = try ReadsbPeer(
                path: peerPath, beastPort: beastPort, receiver: Self.receiver, jsonDirectory: theirs)
            defer { peer.stop() }
            try #require(daemon.waitFor("Beast output: client connected"), "readsb did not connect: \(daemon.stderr)")

            // The recording goes in only now, so readsb hears every frame.
            try input.fileHandleForWriting.write(contentsOf: try Data(contentsOf: recording))
            try input.fileHandleForWriting.close()
            try #require(daemon.waitFor("replay of -", timeout: 30), "\(daemon.stderr)")
            let mine = try #require(AircraftFile.settled(in: ours), "we wrote no aircraft.json")
            let peers = try #require(AircraftFile.settled(in: theirs), "readsb wrote no aircraft.json")

            let comparison = Comparison(ours: mine, theirs: peers, gnssHeights: try Self.gnssHeightReporters(recording))
            #expect(comparison.aircraft >= 35, "only \(comparison.aircraft) aircraft in common")
            #expect(comparison.problems.isEmpty, "\(comparison.problems.prefix(20).joined(separator: "\n"))")
            #expect(comparison.rssiDifferences.count == comparison.aircraft)
            #expect(
                comparison.rssiDifferences.allSatisfy { abs($0) <= 1 },
                "RSSI differences \(comparison.rssiDifferences.sorted())")
            for (key, missing) in comparison.commBMissing {
                let present = comparison.commBPresent[key, default: 0]
                #expect(
                    missing <= max(1, (present + missing) / 5),
                    "\(key): readsb has it for \(present + missing) aircraft, we for \(present)")
            }
            // Fields readsb writes for this sky: each must have been compared somewhere.
            let expected = [
                "alt_baro", "alt_geom", "gs", "track", "geom_rate", "squawk", "flight", "category", "emergency",
                "lat", "lon", "nic", "rc", "version", "nic_baro", "nac_p", "nac_v", "sil", "sil_type", "gva",
                "sda", "alert", "spi", "nav_qnh", "nav_altitude_mcp", "nav_heading", "nav_modes", "mlat", "tisb"
            ]
            for key in expected { #expect(comparison.matched[key, default: 0] > 0, "no \(key) compared") }
            try Self.expectStatsForGraphs1090(in: ours, samples: 8 * 2_400_000, messages: mine.messages)
            print(
                "readsb interop: \(comparison.aircraft) aircraft, RSSI median difference "
                    + String(format: "%+.2f dB", comparison.rssiMedian) + ", fields matched "
                    + comparison.matched.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                        separator: ", ")
                    + "; GNSS heights read differently: \(comparison.gnssHeightConvention)")
        }

        /// DF18 frames of every kind (non-transponder ADS-B, TIS-B, ADS-R, with and without
        /// ICAO addresses) reach us on a Beast input and readsb through our Beast output: both
        /// name each aircraft alike, `~` and `type` included, and keep its callsign.
        @Test(.requires(.shared("peers/readsb")), .timeLimit(.minutes(1)))
        func readsbNamesRelayedAndAnonymousAircraftAsWeDo() throws {
            guard let peerPath = ReadsbPeer.path() else { return }
            // The same layout as the dump1090 interop tests: ours/ and theirs/ in one folder.
            let (folder, ours, theirs) = try Dump1090InteropTests.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }

            let (listener, inputPort) = BlockingSocket.listener()
            let beastPort = BlockingSocket.freePorts(1)[0]
            let daemon = try Daemon([
                "--beast-in", "127.0.0.1:\(inputPort)", "--beast-out", String(beastPort), "--receiver", "52.3,4.75",
                "--json-dir", ours.path, "--socket", folder.appendingPathComponent("feed.sock").path
            ])
            defer { _ = daemon.stop() }
            var wait = timeval(tv_sec: 15, tv_usec: 0)
            setsockopt(listener.descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let connection = accept(listener.descriptor, nil, nil)
            try #require(connection >= 0)
            let sender = BlockingSocket.adopt(connection)
            try #require(daemon.waitFor("Beast output on 127.0.0.1:\(beastPort)"), "\(daemon.stderr)")
            let peer = try ReadsbPeer(
                path: peerPath, beastPort: beastPort, receiver: Self.receiver, jsonDirectory: theirs)
            defer { peer.stop() }
            try #require(daemon.waitFor("Beast output: client connected"), "readsb did not connect: \(daemon.stderr)")

            // (control field, IMF bit, address, with an identification): the identification
            // format has no IMF bit, so it is sent only where the control field alone says.
            let kinds: [(cf: UInt64, imf: Bool, address: UInt32, identified: Bool)] = [
                (0, false, 0xA0_0001, true), (1, false, 0xA0_0002, true), (2, false, 0xA0_0003, true),
                (2, true, 0xA0_0004, false), (5, false, 0xA0_0005, true), (6, false, 0xA0_0006, true),
                (6, true, 0xA0_0007, false)
            ]
            let even = "8D40621D58C382D690C8AC2863A7"
            let odd = "8D40621D58C386435CC412692AD6"
            let identification = "8D4840D6202CC371C32CE0576098"
            func frame(_ hex: String, _ kind: (cf: UInt64, imf: Bool, address: UInt32, identified: Bool), tick: UInt64)
                -> Frame
            {
                var bits = ModeSBits(hex: hex)!
                bits.setField(1, 5, 18)
                bits.setField(6, 8, kind.cf)
                bits.setField(9, 32, UInt64(kind.address))
                if hex != identification { bits.setBit(40, kind.imf) }  // ME bit 8 of a position
                return Frame(
                    bits: CRC.withParity(bits), address: kind.address, timestamp: tick * 1_200_000, signalLevel: -12)
            }
            var tick: UInt64 = 0
            for _ in 0..<6 {
                var bytes: [UInt8] = []
                for kind in kinds {
                    for hex in [even, odd] + (kind.identified ? [identification] : []) {
                        tick += 1
                        BeastEncoder.append(frame(hex, kind, tick: tick), to: &bytes)
                    }
                }
                #expect(sender.write(bytes))
                Thread.sleep(forTimeInterval: 0.4)
            }
            let mine = try #require(AircraftFile.settled(in: ours), "we wrote no aircraft.json")
            let peers = try #require(AircraftFile.settled(in: theirs), "readsb wrote no aircraft.json")
            #expect(Set(mine.aircraft.keys) == Set(peers.aircraft.keys))
            #expect(mine.aircraft.keys.filter { $0.hasPrefix("~") }.count == 4, "\(mine.aircraft.keys.sorted())")
            for (hex, plane) in mine.aircraft {
                let peer = peers.aircraft[hex]
                #expect(plane["type"] as? String == peer?["type"] as? String, "\(hex)")
                #expect(plane["flight"] as? String == peer?["flight"] as? String, "\(hex)")
                #expect(plane["lat"] != nil && peer?["lat"] != nil, "\(hex) position")
            }
            print(
                "readsb interop, DF18: "
                    + mine.aircraft.keys.sorted().map { "\($0) \(mine.aircraft[$0]?["type"] ?? "?")" }.joined(
                        separator: ", "))
        }
    }
}
