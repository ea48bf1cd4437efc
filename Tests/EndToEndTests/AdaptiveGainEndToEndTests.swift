import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The adaptive gain against the fake librtlsdr's tuner model: a simulated sky whose strong
    /// aircraft clip at the highest gain and whose distant ones sink into the converter's noise
    /// at low gains. From either end the daemon settles where the model's noise floor sits in
    /// the controller's window (42 to 48 dB for this model), remembers it, and starts there
    /// next time.
    @Suite(.serialized, .tags(.slow)) struct AdaptiveGainEndToEndTests {
        struct SkyNotMade: Error {
            let stderr: String
        }

        /// The gains where the model's noise floor lies in the window (-34 to -28 dBFS).
        static let window = 42.0...48.0

        /// Three seconds of a sky with aircraft up to 40 dB above the noise, as the antenna
        /// delivers it (cf32, for the tuner model), made once.
        static let sky: Result<String, Error> = Result {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("aviator-gain-sky-\(ProcessInfo.processInfo.processIdentifier).cf32").path
            let made = try BinaryRunner.run([
                "simulate", "--format", "cf32", "--duration", "3", "--aircraft", "40", "--strongest", "40",
                "--channel", "kind", "--seed", "7", "--out", path
            ])
            guard made.status == 0 else { throw SkyNotMade(stderr: made.stderr) }
            return path
        }

        static func folder() throws -> String {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("aviator-gain-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        static func start(state: String, gainLog: String) throws -> Daemon {
            try Daemon(
                ["--state-dir", state, "--stats-interval", "5"],
                environment: try FakeRTLSDR.environment([
                    "AVIATOR_FAKE_RTLSDR_IQ": try sky.get(), "AVIATOR_FAKE_RTLSDR_CF32": "1",
                    "AVIATOR_FAKE_RTLSDR_LOOP": "1", "AVIATOR_FAKE_RTLSDR_REALTIME": "1",
                    "AVIATOR_FAKE_RTLSDR_GAIN_LOG": gainLog
                ]))
        }

        /// The gains the fake was set to, in order.
        static func gains(_ log: String) -> [Double] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        }

        /// Waits up to `timeout` seconds for `condition`.
        static func wait(_ timeout: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return condition()
        }

        @Test func fromTheHighestGainItStepsDownSettlesAndIsRememberedForTheNextStart() throws {
            let state = try Self.folder()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let log = state + "/fake-gains.log"
            let first = try Self.start(state: state, gainLog: log)
            #expect(first.waitFor("gain adaptive, starting at 49.6 dB", timeout: 30))
            // Settled: the gain held for ten seconds of samples and was written down.
            let remembered = state + "/gain"
            #expect(Self.wait(40) { FileManager.default.fileExists(atPath: remembered) })
            #expect(first.stop().status == 0)
            let settled = Double(
                ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").trimmingCharacters(
                    in: .whitespacesAndNewlines))
            #expect(settled.map { Self.window.contains($0) } == true, "remembered \(String(describing: settled))")
            #expect(Self.gains(log).last == settled)
            #expect(first.stderr.contains("adaptive gain: 49.6 -> "))

            let second = try Self.start(state: state, gainLog: log)
            #expect(second.waitFor("gain adaptive, starting at \(settled ?? 0) dB", timeout: 30))
            #expect(second.stop().status == 0)
        }

        @Test func fromTheLowestGainItClimbsToTheWindowWithinHalfAMinute() throws {
            let state = try Self.folder()
            defer { try? FileManager.default.removeItem(atPath: state) }
            try "0.0\n".write(toFile: state + "/gain", atomically: true, encoding: .utf8)
            let log = state + "/fake-gains.log"
            let daemon = try Self.start(state: state, gainLog: log)
            #expect(daemon.waitFor("gain adaptive, starting at 0.0 dB", timeout: 30))
            let started = Date()
            #expect(Self.wait(30) { Self.gains(log).last.map { Self.window.contains($0) } == true })
            let climbed = Date().timeIntervalSince(started)
            #expect(daemon.stop().status == 0)
            #expect(Self.gains(log).first == 0.0)
            #expect(climbed < 30, "\(Self.gains(log)) after \(climbed) s")
        }

        @Test(.requires(.program("python3")))
        func overRTLTCPItStepsDownToo() throws {
            let state = try Self.folder()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let log = state + "/fake-gains.log"
            // rtl_tcp served by a script over the fake librtlsdr: the same tuner model.
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            server.arguments = [
                "python3",
                BinaryRunner.projectRoot.appendingPathComponent("Tests/Fixtures/fake-rtlsdr/rtl_tcp_fake.py").path,
                try FakeRTLSDR.directory.get() + "/librtlsdr.so.0"
            ]
            server.environment = ProcessInfo.processInfo.environment.merging([
                "AVIATOR_FAKE_RTLSDR_IQ": try Self.sky.get(), "AVIATOR_FAKE_RTLSDR_CF32": "1",
                "AVIATOR_FAKE_RTLSDR_LOOP": "1", "AVIATOR_FAKE_RTLSDR_REALTIME": "1",
                "AVIATOR_FAKE_RTLSDR_GAIN_LOG": log
            ]) { $1 }
            let output = Pipe()
            server.standardOutput = output
            try server.run()
            defer { server.terminate() }
            let port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let daemon = try Daemon(["--rtltcp", "127.0.0.1:\(port)", "--state-dir", state])
            #expect(daemon.waitFor("adaptive gain: 49.6 -> ", timeout: 30))
            #expect(
                Self.wait(30) { Self.gains(log).last.map { Self.window.contains($0) } == true }, "\(Self.gains(log))")
            #expect(daemon.stop().status == 0)
        }

        @Test func aDamagedMemoryIsIgnored() throws {
            let state = try Self.folder()
            defer { try? FileManager.default.removeItem(atPath: state) }
            try "not a gain\n".write(toFile: state + "/gain", atomically: true, encoding: .utf8)
            let daemon = try Self.start(state: state, gainLog: state + "/fake-gains.log")
            #expect(daemon.waitFor("ignoring \(state)/gain: not a gain in dB", timeout: 30))
            #expect(daemon.waitFor("gain adaptive, starting at 49.6 dB", timeout: 30))
            #expect(daemon.stop().status == 0)
        }
    }
}
