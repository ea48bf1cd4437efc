import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The daemon's ecosystem outputs as clients see them: Beast, SBS and AVR over TCP and
    /// aircraft.json on disk, checked against the sample's truth; and the option errors.
    @Suite(.tags(.slow)) struct OutputsEndToEndTests {
        static let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        /// The sample's truth: every transmitted message (hex) and each aircraft's first state.
        static func truth() throws -> (messages: Set<String>, states: [String: [String: Any]]) {
            let text = try String(contentsOfFile: sample + ".truth.jsonl", encoding: .utf8)
            var messages = Set<String>()
            var states: [String: [String: Any]] = [:]
            for line in text.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["type"] as? String == "message", let hex = object["hex"] as? String {
                    messages.insert(hex.uppercased())
                }
                if object["type"] as? String == "state", let icao = object["icao"] as? String, states[icao] == nil {
                    states[icao] = object
                }
            }
            return (messages, states)
        }

        /// The messages of a Beast stream (a small parser of its own, independent of the daemon's).
        static func beastMessages(_ bytes: [UInt8]) -> (messages: [String], timestamps: [UInt64], signals: [UInt8]) {
            var messages: [String] = []
            var timestamps: [UInt64] = []
            var signals: [UInt8] = []
            var index = 0
            while index + 1 < bytes.count {
                guard bytes[index] == 0x1A, let length = [0x32: 7, 0x33: 14][bytes[index + 1]] else {
                    index += 1
                    continue
                }
                var body: [UInt8] = []
                var cursor = index + 2
                while body.count < 7 + length, cursor < bytes.count {
                    if bytes[cursor] == 0x1A {
                        guard cursor + 1 < bytes.count, bytes[cursor + 1] == 0x1A else { break }
                        cursor += 1
                    }
                    body.append(bytes[cursor])
                    cursor += 1
                }
                if body.count == 7 + length {
                    timestamps.append(body[0..<6].reduce(0) { $0 << 8 | UInt64($1) })
                    signals.append(body[6])
                    messages.append(body[7...].map { String(format: "%02X", $0) }.joined())
                }
                index = cursor
            }
            return (messages, timestamps, signals)
        }

        @Test func runHelpListsTheOutputOptions() throws {
            let result = try BinaryRunner.run(["run", "--help"])
            #expect(result.status == 0)
            for option in ["--beast-out", "--sbs-out", "--avr-out", "--net", "--bind", "--json-dir"] {
                #expect(result.stdout.contains(option), "missing \(option)")
            }
        }

        @Test func aTakenPortIsOneErrorLineAndAFailedExit() throws {
            let (holder, port) = BlockingSocket.listener()
            defer { _ = holder }
            let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outputs-\(UUID().uuidString.prefix(8)).sock"
            ).path
            let result = try BinaryRunner.run(["--replay", Self.sample, "--sbs-out", String(port), "--socket", socket])
            #expect(result.status != 0)
            let lines = result.stderr.split(separator: "\n")
            #expect(
                lines == [
                    "Error: cannot listen on 127.0.0.1:\(port) for the SBS output: the address is already in use"
                ],
                "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: socket), "nothing else was started")
        }

        @Test func aTakenWebPortIsOneErrorLineAndAFailedExit() throws {
            let (holder, port) = BlockingSocket.listener()
            defer { _ = holder }
            let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outputs-\(UUID().uuidString.prefix(8)).sock"
            ).path
            let result = try BinaryRunner.run([
                "--replay", Self.sample, "--http", "127.0.0.1:\(port)", "--socket", socket
            ])
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(
                lines == ["Error: web: cannot serve on 127.0.0.1:\(port): the address is already in use"],
                "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: socket), "nothing else was started")
        }

        @Test func badOutputOptionsAreClearErrors() throws {
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
                "no-such-dir-\(UUID().uuidString)"
            ).path
            let cases: [([String], String)] = [
                (["--beast-out", "0"], "--beast-out must be a port from 1 to 65535, not 0"),
                (["--avr-out", "65536"], "--avr-out must be a port from 1 to 65535, not 65536"),
                (["--sbs-out", "http"], "--sbs-out"),
                (["--beast-out", "40005", "--sbs-out", "40005"], "need different ports"),
                (["--json-dir", missing], "--json-dir: cannot write JSON to \(missing): no such directory"),
                (["--json-dir", Self.sample], "not a directory"),
                (
                    ["--bind", "not-an-address", "--beast-out", "40007"],
                    "cannot listen on not-an-address:40007 for the Beast output"
                )
            ]
            for (arguments, message) in cases {
                let result = try BinaryRunner.run(
                    ["--replay", Self.sample, "--socket", "/tmp/unused-\(UUID().uuidString.prefix(8)).sock"] + arguments
                )
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Fatal error"), "\(arguments)")
            }
        }

        /// The SBS output's dates and times are local time, as receivers conventionally write
        /// them: the zone of `TZ`, here given as a POSIX rule 5 h 30 min east of UTC so that no
        /// time zone database is needed, shifts every date and time field by exactly that.
        @Test(.timeLimit(.minutes(1)))
        func theSBSOutputWritesTheLocalTimeOfTheDaemonsTimeZone() throws {
            let port = BlockingSocket.freePorts(1)[0]
            let daemon = try Daemon(
                [
                    "--replay", Self.sample, "--throttle", "--loop", "--receiver", "52,4.4",
                    "--sbs-out", String(port)
                ], environment: ["TZ": "XST-5:30"])
            defer { _ = daemon.stop() }
            try #require(daemon.waitFor("SBS output on 127.0.0.1:\(port)"), "\(daemon.stderr)")
            let sbs = try BlockingSocket.connect(port: port)
            let bytes = sbs.collect(for: 2)
            let now = Date()
            let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
            try #require(!lines.isEmpty, "no SBS line in 2 s")
            // Read as if they were UTC, the fields are ahead of the clock by the zone's offset.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "yyyy/MM/dd HH:mm:ss.SSS"
            for line in lines {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                try #require(fields.count == 22, "\(line)")
                for (date, time) in [(fields[6], fields[7]), (fields[8], fields[9])] {
                    let shown = try #require(formatter.date(from: "\(date) \(time)"), "\(line)")
                    let ahead = shown.timeIntervalSince(now)
                    #expect(abs(ahead - 19_800) < 10, "\(line): \(ahead) s ahead of UTC")
                }
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func theDaemonServesTheSampleInEveryFormat() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outputs-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let ports = BlockingSocket.freePorts(3)
            let daemon = try Daemon([
                "--replay", Self.sample, "--throttle", "--loop", "--receiver", "52,4.4",
                "--beast-out", String(ports[0]), "--sbs-out", String(ports[1]), "--avr-out", String(ports[2]),
                "--json-dir", folder.path, "--socket", folder.appendingPathComponent("feed.sock").path
            ])
            defer { _ = daemon.stop() }
            try #require(daemon.waitFor("AVR output on 127.0.0.1:\(ports[2])"), "\(daemon.stderr)")
            let beast = try BlockingSocket.connect(port: ports[0])
            let sbs = try BlockingSocket.connect(port: ports[1])
            let avr = try BlockingSocket.connect(port: ports[2])
            // Two passes of the 0.8 s recording on each connection, read in turn.
            var beastBytes: [UInt8] = []
            var sbsBytes: [UInt8] = []
            var avrBytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(2)
            while Date() < deadline {
                if let bytes = beast.read() { beastBytes += bytes }
                if let bytes = sbs.read() { sbsBytes += bytes }
                if let bytes = avr.read() { avrBytes += bytes }
            }
            let (truthMessages, states) = try Self.truth()

            // AVR: *HEX; lines, each a message that was really sent.
            let avrText = String(decoding: avrBytes, as: UTF8.self)
            let avrLines = avrText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(avrText.hasSuffix("\n"))
            #expect(avrLines.count > 60)
            let avrMessages = Set(avrLines.map { String($0.dropFirst().dropLast()) })
            for line in avrLines {
                #expect(line.hasPrefix("*") && line.hasSuffix(";") && (line.count == 16 || line.count == 30), "\(line)")
            }
            #expect(
                avrMessages.isSubset(of: truthMessages),
                "not sent: \(avrMessages.subtracting(truthMessages).sorted().prefix(3))")

            // Beast: the same messages, with a 12 MHz clock and signal levels.
            let decoded = Self.beastMessages(beastBytes)
            #expect(decoded.messages.count > 60)
            #expect(Set(decoded.messages).isSubset(of: truthMessages))
            #expect(Set(decoded.messages) == avrMessages, "Beast and AVR carry the same frames")
            #expect(decoded.signals.allSatisfy { $0 > 0 })
            let increasing = zip(decoded.timestamps, decoded.timestamps.dropFirst()).filter { $0 < $1 }.count
            #expect(increasing >= decoded.timestamps.count - 4, "timestamps increase (except where the replay loops)")

            // SBS: 22 fields, \r\n, the sample's aircraft where the truth puts them.
            let sbsText = String(decoding: sbsBytes, as: UTF8.self)
            #expect(sbsText.hasSuffix("\r\n"))
            let sbsLines = sbsText.components(separatedBy: "\r\n").dropLast()
            #expect(sbsLines.count > 40)
            var sbsPositions = 0
            for line in sbsLines {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                try #require(fields.count == 22, "\(line)")
                #expect(fields[0] == "MSG")
                let icao = fields[4].lowercased()
                let state = try #require(states[icao], "\(icao) is not in the sample")
                if let lat = Double(fields[14]), let lon = Double(fields[15]) {
                    sbsPositions += 1
                    #expect(
                        abs(lat - (state["lat"] as! Double)) < 0.01 && abs(lon - (state["lon"] as! Double)) < 0.01,
                        "\(line)")
                }
            }
            #expect(sbsPositions > 5)

            // aircraft.json: the sample's aircraft where the truth puts them; receiver.json.
            let file = try #require(AircraftFile.settled(in: folder, quiet: 0, timeout: 5))
            #expect(file.aircraft.count >= 10)
            var jsonPositions = 0
            for (hex, object) in file.aircraft {
                let state = try #require(states[hex], "\(hex) is not in the sample")
                if let lat = object["lat"] as? Double, let lon = object["lon"] as? Double {
                    jsonPositions += 1
                    #expect(
                        abs(lat - (state["lat"] as! Double)) < 0.01 && abs(lon - (state["lon"] as! Double)) < 0.01,
                        "\(hex)")
                }
                if let flight = object["flight"] as? String, let callsign = state["callsign"] as? String {
                    #expect(flight == callsign.padding(toLength: 8, withPad: " ", startingAt: 0))
                }
            }
            #expect(jsonPositions >= 5)
            let receiver = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("receiver.json"))) as? [String: Any])
            #expect(receiver["lat"] as? Double == 52 && receiver["lon"] as? Double == 4.4)
            #expect(receiver["refresh"] as? Int == 1000)
            #expect(daemon.stop().status == 0)
        }
    }
}
