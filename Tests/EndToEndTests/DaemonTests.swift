import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The daemon against the fake librtlsdr: no dongle, a dongle that streams a recording, one
    /// that is unplugged, one that cannot be opened, and one plugged in later.
    @Suite(.serialized, .tags(.slow)) struct DaemonTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        @Test func noDongleFallsBackAndStopsCleanly() throws {
            let daemon = try Daemon(
                ["--retry-interval", "0.2"],
                environment: try FakeRTLSDR.environment(["AVIATOR_FAKE_RTLSDR_DEVICES": "0"]))
            #expect(daemon.waitFor("no RTL-SDR device found"))
            #expect(daemon.waitFor("falling back to opensky"))
            // No --receiver: no box to ask OpenSky for, so nothing leaves the machine.
            #expect(daemon.waitFor("OpenSky fallback idle: no receiver position"))
            Thread.sleep(forTimeInterval: 0.5)
            let stopped = daemon.stop(signal: SIGTERM)
            #expect(stopped.status == 0)
            #expect(stopped.seconds < 2)
            // Said once, not at every retry; and no claim that the dongle is back.
            #expect(daemon.stderr.components(separatedBy: "no RTL-SDR device found").count == 2)
            #expect(!daemon.stderr.contains("is back"))
        }

        @Test func noFallbackMakesAMissingDongleAnError() throws {
            let daemon = try Daemon(
                ["--no-fallback"], environment: try FakeRTLSDR.environment(["AVIATOR_FAKE_RTLSDR_DEVICES": "0"]))
            let status = daemon.waitForExit()
            #expect(status != nil && status != 0)
            #expect(daemon.stderr.contains("no RTL-SDR device found"))
        }

        @Test func realLibraryWithoutADongleSaysSo() throws {
            // The real librtlsdr on a machine without a dongle.
            let daemon = try Daemon(["--no-fallback"])
            let status = daemon.waitForExit()
            #expect(status != nil && status != 0)
            #expect(daemon.stderr.contains("no RTL-SDR device found"))
        }

        /// Messages and aircraft from the daemon's closing "totals:" line.
        func totals(_ daemon: Daemon) throws -> [Int] {
            let line = try #require(daemon.stderr.split(separator: "\n").first { $0.contains("totals:") })
            // "totals: 660 messages (66.8/s), 56 repaired, 12 aircraft, 12 with position, ..."
            let words = line.split(separator: " ")
            return ["messages", "repaired,", "aircraft,"].compactMap { label in
                words.firstIndex(of: Substring(label)).flatMap { Int(words[$0 - 1]) }
            }
        }

        @Test func dongleStreamDecodesTheSameAsAReplay() throws {
            let replay = try Daemon(["--replay", sample, "--receiver", "52,4.4"])
            #expect(replay.waitFor("replay of"))
            #expect(replay.stop().status == 0)
            let dongle = try Daemon(
                ["--receiver", "52,4.4"],
                environment: try FakeRTLSDR.environment([
                    "AVIATOR_FAKE_RTLSDR_IQ": sample, "AVIATOR_FAKE_RTLSDR_REALTIME": "1"
                ]))
            #expect(dongle.waitFor("streaming at 2.4 MS/s"))
            Thread.sleep(forTimeInterval: 2)  // 0.8 s of recording, then silence
            #expect(dongle.stop().status == 0)
            let fromReplay = try totals(replay)
            let fromDongle = try totals(dongle)
            #expect(fromReplay.count == 3 && fromReplay[0] > 20)
            #expect(fromDongle == fromReplay)
            #expect(dongle.stderr.contains("source rtl-sdr"))
            #expect(dongle.stderr.contains("0 samples dropped"))
        }

        @Test func replayTakesTheSameFramesAsDemod() throws {
            let demod = try BinaryRunner.run(["demod", sample])
            let frames = demod.stdout.split(separator: "\n").count
            let replay = try Daemon(["--replay", sample])
            #expect(replay.waitFor("replay of"))
            #expect(replay.stderr.contains(": \(frames) frames in"))
            #expect(replay.stop().status == 0)
            #expect(try totals(replay).first == frames)
        }

        @Test func unplugFallsBackAndKeepsRunning() throws {
            let daemon = try Daemon(
                ["--retry-interval", "0.2"],
                environment: try FakeRTLSDR.environment([
                    "AVIATOR_FAKE_RTLSDR_IQ": sample, "AVIATOR_FAKE_RTLSDR_UNPLUG_AFTER": "1000000"
                ]))
            #expect(daemon.waitFor("stopped streaming"))
            #expect(daemon.process.isRunning)
            #expect(daemon.stop().status == 0)
        }

        @Test func aDongleThatCannotBeOpenedIsReported() throws {
            let daemon = try Daemon([], environment: try FakeRTLSDR.environment(["AVIATOR_FAKE_RTLSDR_FAIL_OPEN": "1"]))
            #expect(daemon.waitFor("cannot open RTL-SDR device 0"))
            #expect(daemon.stop().status == 0)
        }

        /// A dongle whose USB transfers hang delivers nothing and reports nothing: after 30 s it
        /// is stopped, said so, and the fallback feeds the radar while it is tried again.
        @Test func aDongleThatFallsSilentIsStoppedAndTheFallbackTakesOver() throws {
            let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path
            let daemon = try Daemon(
                [],
                environment: try FakeRTLSDR.environment([
                    "AVIATOR_FAKE_RTLSDR_IQ": sample, "AVIATOR_FAKE_RTLSDR_LOOP": "1",
                    "AVIATOR_FAKE_RTLSDR_REALTIME": "1",
                    "AVIATOR_FAKE_RTLSDR_STALL_AFTER": "2400000", "AVIATOR_FAKE_RTLSDR_STALL_SECONDS": "100000"
                ]))
            #expect(daemon.waitFor("streaming at 2.4 MS/s"))
            #expect(daemon.waitFor("RTL-SDR device sent no samples for 30 s and was stopped", timeout: 50))
            #expect(daemon.waitFor("falling back to opensky"))
            #expect(daemon.process.isRunning)
            #expect(daemon.stop().status == 0)
        }

        /// A dongle that is plugged in but cannot be opened (another program has it) leaves
        /// the fallback running: it is not stopped and started again at every retry.
        @Test func aDongleThatStaysBusyLeavesTheFallbackRunning() throws {
            let daemon = try Daemon(
                ["--retry-interval", "0.2"],
                environment: try FakeRTLSDR.environment(["AVIATOR_FAKE_RTLSDR_FAIL_OPEN": "1"]))
            #expect(daemon.waitFor("falling back to opensky"))
            // About ten retries.
            Thread.sleep(forTimeInterval: 2)
            #expect(daemon.stop().status == 0)
            let log = daemon.stderr
            #expect(log.components(separatedBy: "cannot open RTL-SDR device 0").count == 2, "\(log)")
            #expect(!log.contains("device is back"), "\(log)")
        }

        @Test func aDonglePluggedInLaterIsPickedUp() throws {
            let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-dongle-\(UUID().uuidString)")
            let daemon = try Daemon(
                ["--retry-interval", "0.2"],
                environment: try FakeRTLSDR.environment([
                    "AVIATOR_FAKE_RTLSDR_PRESENT_FILE": marker.path, "AVIATOR_FAKE_RTLSDR_REALTIME": "1"
                ]))
            #expect(daemon.waitFor("no RTL-SDR device found"))
            #expect(FileManager.default.createFile(atPath: marker.path, contents: Data()))
            defer { try? FileManager.default.removeItem(at: marker) }
            #expect(daemon.waitFor("RTL-SDR device is back"))
            #expect(daemon.waitFor("streaming at 2.4 MS/s"))
            #expect(daemon.stop().status == 0)
        }
    }
}
