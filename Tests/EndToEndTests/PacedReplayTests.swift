import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// A replay at a speed (`--speed N`) takes the dongle's path, a ring and a demodulating
    /// thread; the demodulator's level can be held or governed.
    @Suite(.serialized, .tags(.slow)) struct PacedReplayTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path

        /// The frames `demod` finds in the sample with `options`.
        func demodFrames(_ options: [String] = []) throws -> Int {
            try BinaryRunner.run(["demod", sample] + options).stdout.split(separator: "\n").count
        }

        @Test func aPacedReplayFindsTheFramesOfAnUnpacedOne() throws {
            let frames = try demodFrames()
            // 0.8 s of a busy sky at twice real time, through the ring: nothing is dropped, so
            // every frame is there.
            let replay = try Daemon(["--replay", sample, "--speed", "2"])
            #expect(replay.waitFor("replay of"))
            #expect(replay.stderr.contains("demodulator governed within 40% of a core"))
            #expect(replay.stderr.contains(": \(frames) frames in 0.8 s"), "\(replay.stderr)")
            #expect(replay.stop().status == 0)
            #expect(replay.stderr.contains("0 samples dropped"))
        }

        @Test func aPacedReplayOfAPipeCountsFromItsFirstSample() throws {
            // The writer starts a second after the daemon, then writes the sample four times
            // (3.2 s of samples, more than the ring holds). A pace counted from the daemon's
            // start would find all of it overdue at speed 4 and flood the ring at once.
            let input = Pipe()
            let replay = try Daemon(["--replay", "-", "--format", "cu8", "--speed", "4"], standardInput: input)
            #expect(replay.waitFor("radar feed on"))
            Thread.sleep(forTimeInterval: 1)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: sample))
            for _ in 0..<4 { try input.fileHandleForWriting.write(contentsOf: bytes) }
            try input.fileHandleForWriting.close()
            #expect(replay.waitFor("replay of"))
            #expect(replay.stderr.contains(" in 3.2 s of samples"), "\(replay.stderr)")
            #expect(replay.stop().status == 0)
            #expect(replay.stderr.contains(" 0 samples dropped"), "\(replay.stderr)")
        }

        @Test func aHeldLevelIsTheLevelsTechniquesAndIsCountedInStatsJSON() throws {
            let plain = try demodFrames([
                "--no-sequence", "--no-channel-fit", "--no-feedback", "--no-cancel-overlaps", "--no-coherent"
            ])
            #expect(plain < (try demodFrames()), "the plain path finds fewer frames on a busy sky")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paced-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let replay = try Daemon([
                "--replay", sample, "--throttle", "--demod-level", "0", "--json-dir", directory.path
            ])
            #expect(replay.waitFor("replay of"))
            #expect(replay.stderr.contains("demodulator held at level 0 (plain)"))
            #expect(replay.stderr.contains(": \(plain) frames in 0.8 s"), "\(replay.stderr)")
            // stats.json is written once a second.
            Thread.sleep(forTimeInterval: 1.5)
            #expect(replay.stop().status == 0)
            #expect(replay.stderr.contains("demodulator plain (level 0, 0 changes)"))
            let stats =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: directory.appendingPathComponent("stats.json"))) as? [String: Any]
            let total = try #require(stats?["total"] as? [String: Any])
            let local = try #require(total["local"] as? [String: Any])
            #expect(local["demod_level"] as? Int == 0)
            #expect(local["demod_level_changes"] as? Int == 0)
            let seconds = try #require(local["demod_level_seconds"] as? [Double])
            #expect(seconds.count == 5 && abs(seconds[0] - 0.8) < 0.05 && seconds[1...].allSatisfy { $0 == 0 })
        }

        @Test func theGovernorMeasuresAcrossPassesOfALoopShorterThanItsWindow() throws {
            // Passes of 0.8 s, windows of 2 s: only a governor that carries on from one pass to
            // the next ever completes a window. Any computer demodulates a busy sky at more
            // than 1% of a core, so it steps down to the plain path within a few seconds.
            let replay = try Daemon(["--replay", sample, "--speed", "1", "--loop", "--demod-budget", "1"])
            #expect(replay.waitFor("-> 0 (plain): at ", timeout: 30), "\(replay.stderr)")
            #expect(replay.stop().status == 0)
            #expect(replay.stderr.contains("budget 1%"))
        }
    }
}
