import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// `aviator-adsb radar` as a person sees it: run in a tmux pane against the daemon replaying
    /// a bundled recording, with the screen captured and read back. A second client on the same
    /// socket, asking for the same view, tells where each aircraft must be drawn.
    @Suite(.serialized, .tags(.slow)) struct RadarTerminalTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path
        static let arrows = Set("↑↗→↘↓↙←↖⇑⇗⇒⇘⇓⇙⇐⇖◆")

        /// The pane's text, for failure messages.
        static func text(_ tmux: TmuxSession) -> String {
            ((try? tmux.capture()) ?? []).joined(separator: "\n")
        }

        func socketPath() -> String { "/tmp/aviator-radar-\(UUID().uuidString.prefix(8)).sock" }

        func startDaemon(socket: String) throws -> Daemon {
            try Daemon([
                "--replay", sample, "--throttle", "--loop", "--receiver", "52,4.4", "--range-km", "300",
                "--frame-interval", "0.25", "--socket", socket
            ])
        }

        /// Reads frames for `seconds` and returns the latest.
        func latestFrame(_ client: BlockingSocket, seconds: Double = 0.3) -> [String: Any]? {
            var latest: [String: Any]?
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, let object = client.nextObject() {
                if object["type"] as? String == "frame" { latest = object }
            }
            return latest
        }

        /// Problems with the screen for `frame`: every aircraft at least `minKm` away must have its
        /// glyph where its x, y put it and its label beside it, and the glyph must lie in the
        /// direction of its bearing. Empty when all is right.
        func problems(screen lines: [String], frame: [String: Any], headingDeg: Int, minKm: Double = 5) -> [String] {
            let screen = RadarScreenReading(lines)
            guard let scope = screen.scope(headingDeg: headingDeg) else {
                return ["compass letters for heading \(headingDeg) not found"]
            }
            guard (frame["heading_deg"] as? Double).map({ Int($0) }) == headingDeg else {
                return ["frame is for another heading"]
            }
            let aircraft = frame["aircraft"] as? [[String: Any]] ?? []
            var problems: [String] = []
            var checked = 0
            for plane in aircraft {
                guard let x = plane["x"] as? Double, let y = plane["y"] as? Double,
                    let km = plane["ground_km"] as? Double,
                    let bearing = plane["bearing_deg"] as? Double, km >= minKm
                else { continue }
                let label = (plane["callsign"] as? String) ?? (plane["icao"] as? String ?? "").uppercased()
                // Two columns per row: terminal cells are about twice as tall as wide.
                let column = scope.column + Int((x * Double(scope.radius) * 2).rounded())
                let row = scope.row - Int((y * Double(scope.radius)).rounded())
                let glyphs = [(column, row), (column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1)]
                    .filter { screen.character($0.0, $0.1).map(Self.arrows.contains) == true }
                guard let glyph = glyphs.first else {
                    problems.append("\(label): no aircraft glyph at column \(column), row \(row)")
                    continue
                }
                let spots = [
                    (glyph.0 + 2, glyph.1), (glyph.0 - 1 - label.count, glyph.1), (glyph.0 + 2, glyph.1 - 1),
                    (glyph.0 + 2, glyph.1 + 1), (glyph.0 - 1 - label.count, glyph.1 - 1),
                    (glyph.0 - 1 - label.count, glyph.1 + 1)
                ]
                let found = screen.occurrences(of: label)
                let beside = found.contains { spot in
                    spots.contains { $0.1 == spot.row && abs($0.0 - spot.column) <= 1 }
                }
                if !beside {
                    problems.append("\(label): label not beside its glyph at \(glyph) (found at \(found))")
                }
                // The glyph's direction from the centre is the aircraft's bearing.
                let dx = Double(glyph.0 - scope.column) / 2
                let dy = Double(scope.row - glyph.1)
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance >= 3 {
                    let drawn = (atan2(dx, dy) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
                    let difference = abs((drawn - bearing + 540).truncatingRemainder(dividingBy: 360) - 180)
                    let allowed = max(5, atan(1.5 / distance) * 180 / .pi)
                    if difference > allowed {
                        problems.append("\(label): drawn at \(Int(drawn))°, bearing \(Int(bearing))°")
                    }
                }
                checked += 1
            }
            if checked < 2 { problems.append("only \(checked) aircraft far enough from the centre to check") }
            return problems
        }

        /// Waits until the screen matches the second client's frames; the last problems found.
        func waitForMatch(_ tmux: TmuxSession, _ client: BlockingSocket, headingDeg: Int, timeout: Double = 15) throws
            -> [String]
        {
            let deadline = Date().addingTimeInterval(timeout)
            var last = ["no frame"]
            while Date() < deadline {
                guard let frame = latestFrame(client) else { continue }
                last = problems(screen: try tmux.capture(), frame: frame, headingDeg: headingDeg)
                if last.isEmpty { return [] }
            }
            return last
        }

        @Test(.enabled(if: TmuxSession.usable, "tmux is not installed: apt-get install -y tmux"))
        func aircraftAreDrawnWhereTheirBearingsPutThem() throws {
            let socket = socketPath()
            let tmux = try TmuxSession(
                command: "\(BinaryRunner.binary.path) radar --socket \(socket) --heading 90 --range-km 75;"
                    + " echo radar-exit=$?; stty -a; sleep 60", width: 120, height: 40)
            // Started before the daemon: it waits, then connects by itself.
            let waiting = try tmux.waitForScreen { RadarScreenReading($0).contains("waiting for aviator-adsb...") }
            #expect(
                RadarScreenReading(waiting).contains("waiting for aviator-adsb..."),
                "\(waiting.joined(separator: "\n"))")

            let daemon = try startDaemon(socket: socket)
            defer { _ = daemon.stop() }
            let client = try BlockingSocket.connect(path: socket)
            client.sendLine(#"{"type":"view","heading_deg":90,"range_km":75}"#)
            var problems = try waitForMatch(tmux, client, headingDeg: 90)
            #expect(problems.isEmpty, "\(problems)\n\(Self.text(tmux))")
            let screen = RadarScreenReading(try tmux.capture())
            #expect(screen.contains("SRC replay"))
            #expect(screen.contains("HDG 090°  RANGE 75 km"))

            // Nine presses of Left turn the radar back to north.
            for _ in 0..<9 { try tmux.send("Left") }
            client.sendLine(#"{"type":"view","heading_deg":0}"#)
            problems = try waitForMatch(tmux, client, headingDeg: 0)
            #expect(problems.isEmpty, "\(problems)\n\(Self.text(tmux))")

            // A smaller terminal: the radar is drawn again to fit.
            let before = RadarScreenReading(try tmux.capture()).scope(headingDeg: 0)
            try tmux.resize(width: 96, height: 30)
            let resized = try tmux.waitForScreen { lines in
                let scope = RadarScreenReading(lines).scope(headingDeg: 0)
                return scope != nil && scope?.radius != before?.radius
            }
            let scope = try #require(
                RadarScreenReading(resized).scope(headingDeg: 0), "\(resized.joined(separator: "\n"))")
            #expect(scope.radius < (before?.radius ?? 0))
            problems = try waitForMatch(tmux, client, headingDeg: 0)
            #expect(problems.isEmpty, "\(problems)\n\(Self.text(tmux))")

            // q quits, and the terminal is back in its normal mode.
            try tmux.send("q")
            let after = try tmux.waitForScreen {
                $0.contains { $0.contains("radar-exit=") } && $0.contains { $0.contains("icanon") }
            }
            #expect(after.contains("radar-exit=0"))
            let settings = after.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == ";" }).map(
                String.init)
            #expect(settings.contains("icanon") && settings.contains("echo"), "\(after.joined(separator: "\n"))")
            #expect(!settings.contains("-icanon") && !settings.contains("-echo"))
        }

        @Test(.enabled(if: TmuxSession.usable, "tmux is not installed: apt-get install -y tmux"))
        func coloursAndCtrlCRestoreTheTerminal() throws {
            let socket = socketPath()
            let daemon = try startDaemon(socket: socket)
            defer { _ = daemon.stop() }
            _ = try BlockingSocket.connect(path: socket)  // the daemon is up

            // Colours by default: green on black.
            let coloured = try TmuxSession(
                command: "\(BinaryRunner.binary.path) radar --socket \(socket); sleep 60",
                width: 100, height: 30)
            let colourScreen = try coloured.waitForScreen { RadarScreenReading($0).contains("SRC replay") }
            #expect(RadarScreenReading(colourScreen).contains("SRC replay"))
            let colourEscapes = try coloured.capture(escapes: true).joined()
            #expect(colourEscapes.contains("38;5;46"))

            // NO_COLOR: none; Ctrl-C quits with the status of SIGINT and restores the terminal.
            let plain = try TmuxSession(
                command: "NO_COLOR=1 \(BinaryRunner.binary.path) radar --socket \(socket);"
                    + " echo radar-exit=$?; stty -a; sleep 60", width: 100, height: 30)
            let plainScreen = try plain.waitForScreen { RadarScreenReading($0).contains("SRC replay") }
            #expect(RadarScreenReading(plainScreen).contains("SRC replay"))
            let plainEscapes = try plain.capture(escapes: true).joined()
            #expect(!plainEscapes.contains("38;5;"))
            try plain.send("C-c")
            let after = try plain.waitForScreen { $0.contains { $0.contains("icanon") } }
            #expect(after.contains("radar-exit=130"), "\(after.joined(separator: "\n"))")
            let settings = after.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == ";" }).map(
                String.init)
            #expect(settings.contains("icanon") && settings.contains("echo") && !settings.contains("-echo"))
        }

        @Test func onceprintsOneFrameAsPlainText() throws {
            let socket = socketPath()
            let daemon = try startDaemon(socket: socket)
            defer { _ = daemon.stop() }
            let client = try BlockingSocket.connect(path: socket)
            client.sendLine(#"{"type":"view","heading_deg":90,"range_km":75}"#)
            // Let the replay position a few aircraft first.
            Thread.sleep(forTimeInterval: 2)
            let result = try BinaryRunner.run([
                "radar", "--once", "--socket", socket, "--heading", "90", "--range-km", "75",
                "--size", "120x40"
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}"))
            let lines = result.stdout.components(separatedBy: "\n")
            let frame = try #require(latestFrame(client))
            let problems = problems(screen: lines, frame: frame, headingDeg: 90)
            #expect(problems.isEmpty, "\(problems)\n\(result.stdout)")
        }

        @Test func onceWithoutADaemonIsAClearError() throws {
            let socket = socketPath()
            let result = try BinaryRunner.run(["radar", "--once", "--socket", socket, "--timeout", "0.5"])
            #expect(result.status != 0)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "Error: no radar frame from \(socket) within 0.5 s: cannot connect to \(socket): No such file or directory\n"
            )
            let noTerminal = try BinaryRunner.run(["radar", "--socket", socket])
            #expect(noTerminal.status != 0)
            #expect(noTerminal.stderr.contains("needs a terminal"))
        }
    }
}
