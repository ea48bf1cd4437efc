import Foundation
import ModeS
import TestSupport
import Testing

extension EndToEnd {
    /// The daemon's clock and its inputs: a dongle that stalls, replays that wait on a pipe,
    /// recordings too short to loop.
    @Suite(.serialized, .tags(.slow)) struct TimeAndInputTests {
        let busy = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path

        /// The aircraft of `aircraft.json` in `directory`.
        func aircraft(in directory: URL) throws -> [[String: Any]] {
            let data = try Data(contentsOf: directory.appendingPathComponent("aircraft.json"))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(root["aircraft"] as? [[String: Any]])
        }

        @Test func aStalledDongleLeavesNoAircraftBehindTheClock() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-stall-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // The dongle streams a busy sky in real time, stops delivering for 6 s after about
            // 2 s, and the samples of those 6 s are lost without anyone counting them.
            let daemon = try Daemon(
                ["--receiver", "52.3,4.75", "--json-dir", folder.path],
                environment: try FakeRTLSDR.environment([
                    "AVIATOR_FAKE_RTLSDR_IQ": busy, "AVIATOR_FAKE_RTLSDR_LOOP": "1",
                    "AVIATOR_FAKE_RTLSDR_REALTIME": "1",
                    "AVIATOR_FAKE_RTLSDR_STALL_AFTER": "9600000", "AVIATOR_FAKE_RTLSDR_STALL_SECONDS": "6"
                ]))
            #expect(daemon.waitFor("streaming at 2.4 MS/s"))
            Thread.sleep(forTimeInterval: 2 + 6 + 3)
            let planes = try aircraft(in: folder)
            #expect(daemon.stop().status == 0)
            let seen = planes.compactMap { $0["seen"] as? Double }
            #expect(planes.count > 10)
            // Frames after the stall are stamped when they arrived: heard within the last
            // seconds, not 6 s ago.
            #expect((seen.min() ?? 99) < 1.5)
            #expect(planes.filter { ($0["seen_pos"] as? Double).map { $0 < 2 } == true }.count > 10)
        }

        @Test func aReplayWaitingOnAFIFOStopsOnSIGTERM() throws {
            let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-fifo-\(UUID().uuidString)"
            ).path
            #expect(mkfifo(fifo, 0o600) == 0)
            defer { unlink(fifo) }
            let daemon = try Daemon(["--replay", fifo])
            #expect(daemon.waitFor("radar feed on"))
            Thread.sleep(forTimeInterval: 0.5)
            let stopped = daemon.stop(signal: SIGTERM)
            #expect(stopped.status == 0)
            #expect(stopped.seconds < 2)
        }

        @Test func aReplayOfQuietStandardInputStopsOnSIGTERM() throws {
            let input = Pipe()  // kept open, never written
            let daemon = try Daemon(["--replay", "-", "--format", "cu8"], standardInput: input)
            #expect(daemon.waitFor("radar feed on"))
            Thread.sleep(forTimeInterval: 0.5)
            let stopped = daemon.stop(signal: SIGTERM)
            #expect(stopped.status == 0)
            #expect(stopped.seconds < 2)
            try input.fileHandleForWriting.close()
        }

        @Test func aRecordingWithoutAWholeSampleIsRefusedNotLooped() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-1byte-\(UUID().uuidString).cu8")
            try Data([0x80]).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let daemon = try Daemon(["--replay", file.path, "--loop"])
            let status = daemon.waitForExit(timeout: 10)
            #expect(status == 1)
            #expect(daemon.stderr.contains("holds no whole sample"))
            #expect(daemon.stderr.components(separatedBy: "replay of").count <= 2, "no line per pass")
        }

        @Test func loopPassesAfterTheFirstAreNotLoggedAtInfo() throws {
            let daemon = try Daemon(["--replay", busy, "--loop"])
            #expect(daemon.waitFor("(pass 1)"))
            Thread.sleep(forTimeInterval: 2)
            #expect(daemon.stop().status == 0)
            #expect(!daemon.stderr.contains("(pass 2)"))
        }

        @Test func aHostileBeastSenderNeitherEmptiesTheMapNorGetsItsMLATResent() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let (listener, port) = BlockingSocket.listener()
            let outPort = BlockingSocket.freePorts(1)[0]
            let daemon = try Daemon([
                "--beast-in", "127.0.0.1:\(port)", "--beast-out", "\(outPort)",
                "--json-dir", folder.path
            ])
            // accept waits no longer than the receive timeout: a daemon that never connects
            // fails the test instead of hanging it.
            var wait = timeval(tv_sec: 15, tv_usec: 0)
            setsockopt(listener.descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let connection = accept(listener.descriptor, nil, nil)
            #expect(connection >= 0)
            defer { close(connection) }
            let sender = BlockingSocket.adopt(connection)
            #expect(daemon.waitFor("Beast output on"))
            let reader = try BlockingSocket.connect(port: outPort)
            // Real frames, then one stamped at the 12 MHz counter's maximum (it moved the
            // tracker's clock months ahead), then a multilateration result.
            var bytes: [UInt8] = []
            for (index, frame) in try OutputTestFrames.busyAirport().prefix(400).enumerated() {
                var frame = frame.frame
                frame.timestamp = index == 200 ? 0xFFFF_FFFF_FFFF : UInt64(index) * 12_000
                BeastEncoder.append(frame, to: &bytes)
            }
            let result = OutputTestFrames.extendedSquitter(
                "8D485020994409940838175B284F",
                timestamp: BeastFrameParser.multilaterationMarker)
            BeastEncoder.append(result, to: &bytes)
            #expect(sender.write(bytes))
            let forwarded = reader.collect(for: 3)
            let planes = try aircraft(in: folder)
            #expect(daemon.stop().status == 0)
            #expect(planes.count > 20, "one absurd timestamp must not age every aircraft out")
            #expect(planes.allSatisfy { ($0["seen"] as? Double).map { $0 < 10 } == true })
            let mlat = planes.first { $0["hex"] as? String == "485020" }
            #expect(mlat?["type"] as? String == "mlat")
            // The marker's bytes never leave on the Beast output (0x1A in it would be doubled,
            // but FF 00 4D 4C 41 54 has none).
            let marker: [UInt8] = [0xFF, 0x00, 0x4D, 0x4C, 0x41, 0x54]
            #expect(forwarded.count > 1_000)
            #expect(!forwarded.indices.dropLast(5).contains { Array(forwarded[$0..<($0 + 6)]) == marker })
        }
    }
}
