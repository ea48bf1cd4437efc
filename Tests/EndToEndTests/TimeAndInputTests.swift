import Foundation
import Testing
import TestSupport

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
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aviator-stall-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // The dongle streams a busy sky in real time, stops delivering for 6 s after about
            // 2 s, and the samples of those 6 s are lost without anyone counting them.
            let daemon = try Daemon(["--receiver", "52.3,4.75", "--json-dir", folder.path], environment: try FakeRTLSDR.environment([
                "AVIATOR_FAKE_RTLSDR_IQ": busy, "AVIATOR_FAKE_RTLSDR_LOOP": "1", "AVIATOR_FAKE_RTLSDR_REALTIME": "1",
                "AVIATOR_FAKE_RTLSDR_STALL_AFTER": "9600000", "AVIATOR_FAKE_RTLSDR_STALL_SECONDS": "6",
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
            let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("aviator-fifo-\(UUID().uuidString)").path
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
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("aviator-1byte-\(UUID().uuidString).cu8")
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
    }
}
