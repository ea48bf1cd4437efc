import Foundation
import Pipeline
import Testing
import Tracking

@testable import Outputs

/// stats.json: dump1090-fa's layout, read the way graphs1090 reads it.
@Suite struct StatsJSONTests {
    /// A snapshot at `time` after `frames` frames, `samples` samples and frames at -10 dBFS
    /// (three quarters) and -2 dBFS (a quarter), noise at -30 dBFS.
    static func snapshot(at time: Double, frames: Int, cpu: Double = 0) -> StatsJSON.Snapshot {
        var local = LocalStatistics()
        local.samplesProcessed = frames * 1000
        local.preambles = frames * 3
        for index in 0..<frames { local.accept(dBFS: index % 4 == 3 ? -2 : -10, repairedBits: index % 10 == 0 ? 1 : 0) }
        local.noisePowerSum = 0.001 * Double(frames)
        local.noiseSamples = frames
        local.demodulationSeconds = cpu / 2
        var counters = FrameCounters()
        counters.frames = frames
        var tracks = Tracker.Counts()
        tracks.tracks = frames / 10
        tracks.positions = frames / 5
        return StatsJSON.Snapshot(
            time: time, statistics: ReceiverStatistics(counters: counters, tracks: tracks, local: local),
            processSeconds: cpu)
    }

    static func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func graphs1090FindsEverythingItReads() throws {
        let root = try Self.parse(
            StatsJSON.text(
                start: Self.snapshot(at: 0, frames: 0), minutes: [],
                now: Self.snapshot(at: 30, frames: 400, cpu: 2)))
        for period in ["latest", "last1min", "last5min", "last15min", "total"] {
            let object = try #require(root[period] as? [String: Any], "\(period)")
            #expect(object["start"] is Double && object["end"] is Double, "\(period)")
            let local = try #require(object["local"] as? [String: Any], "\(period)")
            for key in ["samples_processed", "samples_dropped", "modes", "bad", "unknown_icao", "strong_signals"] {
                #expect(local[key] is Int, "\(period).local.\(key)")
            }
            for key in ["signal", "noise", "peak_signal"] { #expect(local[key] is Double, "\(period).local.\(key)") }
            #expect((local["accepted"] as? [Int])?.isEmpty == false)
            let cpr = try #require(object["cpr"] as? [String: Any])
            #expect(cpr["global_ok"] is Int && cpr["local_ok"] is Int)
            let tracks = try #require(object["tracks"] as? [String: Any])
            #expect(tracks["all"] is Int && tracks["single_message"] is Int)
            #expect((object["cpu"] as? [String: Int])?.keys.sorted() == ["background", "demod", "reader"])
            #expect(object["messages"] is Int)
        }
        let total = try #require(root["total"] as? [String: Any])
        let local = try #require(total["local"] as? [String: Any])
        #expect(local["samples_processed"] as? Int == 400_000)
        #expect(local["accepted"] as? [Int] == [360, 40, 0])
        #expect(local["bad"] as? Int == 800)
        #expect(local["strong_signals"] as? Int == 100)
        #expect(local["peak_signal"] as? Double == -2)
        #expect(local["noise"] as? Double == -30)
        // Three frames at 0.1 and one at 0.631 of full scale: a mean power of 0.233, -6.3 dBFS.
        #expect(local["signal"] as? Double == -6.3)
        #expect(total["messages"] as? Int == 400)
        #expect((total["cpr"] as? [String: Any])?["global_ok"] as? Int == 80)
        #expect((total["tracks"] as? [String: Any])?["all"] as? Int == 40)
        #expect(total["cpu"] as? [String: Int] == ["demod": 1000, "reader": 0, "background": 1000])
    }

    @Test func minutePeriodsAreTheDifferencesOfMinuteSnapshots() throws {
        var history = StatsJSON.History(start: Self.snapshot(at: 0, frames: 0))
        var text = ""
        for second in stride(from: 10.0, through: 130, by: 10) {
            text = history.record(Self.snapshot(at: second, frames: Int(second) * 10))
        }
        #expect(history.minutes.map(\.time) == [60, 120])
        let root = try Self.parse(text)
        func period(_ name: String) throws -> (start: Double, end: Double, messages: Int) {
            let object = try #require(root[name] as? [String: Any])
            return (
                try #require(object["start"] as? Double), try #require(object["end"] as? Double),
                try #require(object["messages"] as? Int)
            )
        }
        #expect(try period("last1min") == (60, 120, 600))
        #expect(try period("last5min") == (0, 120, 1200), "not five minutes yet: from the start")
        #expect(try period("latest") == (120, 130, 100))
        #expect(try period("total") == (0, 130, 1300))
    }

    @Test func withoutALocalReceiverThereIsNoLocalSection() throws {
        var snapshot = Self.snapshot(at: 10, frames: 0)
        snapshot.statistics.counters.frames = 50
        let root = try Self.parse(StatsJSON.text(start: Self.snapshot(at: 0, frames: 0), minutes: [], now: snapshot))
        let total = try #require(root["total"] as? [String: Any])
        #expect(total["local"] == nil)
        #expect((total["remote"] as? [String: Any])?["accepted"] as? [Int] == [50])
    }
}
