import FoundationEssentials
import ModeS
import Pipeline
import Support
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// stats.json in dump1090-fa's layout, as graphs1090 and other collectors read it: periods
/// `latest`, `last1min`, `last5min`, `last15min` and `total`, each with `start`, `end`,
/// `local` (what the demodulator here counted; left out when nothing was demodulated here),
/// `remote` (frames from a Beast input), `cpr`, `cpu` (milliseconds), `tracks` and `messages`.
///
/// Powers are dBFS as in aircraft.json: `signal` is the mean power of the accepted frames,
/// `noise` the mean power of the samples, `peak_signal` the strongest frame, and
/// `strong_signals` counts frames above -3 dBFS. `bad` is the preambles examined that gave no
/// frame; `unknown_icao` (frames refused for an address never heard) is not counted apart
/// and is 0; CPR decoding does not tell global from local positions, so every position
/// counts as `global_ok`.
package enum StatsJSON {
    /// The totals at one moment.
    package struct Snapshot: Sendable, Equatable {
        /// Seconds since 1970.
        package var time: Double
        /// The tracker's counts.
        package var statistics: ReceiverStatistics
        /// Processor time of the whole process so far, seconds.
        package var processSeconds: Double

        /// A snapshot from its parts.
        package init(time: Double, statistics: ReceiverStatistics, processSeconds: Double) {
            self.time = time
            self.statistics = statistics
            self.processSeconds = processSeconds
        }

        /// Processor time this process has used, user and system, in seconds.
        package static func processSeconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
    }

    /// The snapshots stats.json is made of: the one at start and one a minute for the last
    /// quarter of an hour.
    package struct History: Sendable {
        /// The snapshot at start.
        package let start: Snapshot
        /// One a minute, oldest first, at most 16.
        package private(set) var minutes: [Snapshot] = []

        /// A history from `start`.
        package init(start: Snapshot) { self.start = start }

        /// Keeps `now` when a minute has passed since the last kept snapshot; returns the text
        /// of stats.json as of `now`.
        package mutating func record(_ now: Snapshot) -> String {
            if now.time - (minutes.last ?? start).time >= 60 {
                minutes.append(now)
                if minutes.count > 16 { minutes.removeFirst() }
            }
            return StatsJSON.text(start: start, minutes: minutes, now: now)
        }
    }

    /// The text of stats.json at `now`, from the snapshot at start, those taken once a minute
    /// since (oldest first), and the current one. Until a minute has passed, the minute
    /// periods run from the start to now.
    package static func text(start: Snapshot, minutes: [Snapshot], now: Snapshot) -> String {
        let newest = minutes.last ?? now
        func minutesBack(_ count: Int) -> Snapshot {
            minutes.count > count ? minutes[minutes.count - 1 - count] : start
        }
        var root = JSONObjectWriter()
        root.add("now", now.time, decimals: 1)
        root.addRaw("latest", period(from: minutes.last ?? start, to: now))
        root.addRaw("last1min", period(from: minutesBack(1), to: newest))
        root.addRaw("last5min", period(from: minutesBack(5), to: newest))
        root.addRaw("last15min", period(from: minutesBack(15), to: newest))
        root.addRaw("total", period(from: start, to: now))
        return root.result + "\n"
    }

    /// One period's object: what was counted between `earlier` and `later`.
    static func period(from earlier: Snapshot, to later: Snapshot) -> String {
        let local = later.statistics.local.since(earlier.statistics.local)
        let frames = later.statistics.counters.frames - earlier.statistics.counters.frames
        let tracks = later.statistics.tracks
        let before = earlier.statistics.tracks
        var w = JSONObjectWriter()
        w.add("start", earlier.time, decimals: 1)
        w.add("end", later.time, decimals: 1)
        if later.statistics.local.samplesProcessed > 0 { w.addRaw("local", localObject(local)) }
        let remote = frames - local.acceptedFrames
        if remote > 0 {
            var r = JSONObjectWriter()
            r.add("modeac", 0)
            r.add("modes", remote)
            r.add("bad", 0)
            r.add("unknown_icao", 0)
            r.addRaw("accepted", "[\(remote)]")
            w.addRaw("remote", r.result)
        }
        var cpr = JSONObjectWriter()
        cpr.add("surface", tracks.surfacePositionFrames - before.surfacePositionFrames)
        cpr.add("airborne", tracks.airbornePositionFrames - before.airbornePositionFrames)
        cpr.add("global_ok", tracks.positions - before.positions)
        cpr.add("global_bad", 0)
        cpr.add("global_skipped", 0)
        cpr.add("local_ok", 0)
        cpr.add("local_skipped", 0)
        cpr.add("filtered", 0)
        w.addRaw("cpr", cpr.result)
        var cpu = JSONObjectWriter()
        let demodulation = local.demodulationSeconds
        let total = later.processSeconds - earlier.processSeconds
        cpu.add("demod", Int((demodulation * 1000).rounded()))
        cpu.add("reader", 0)
        cpu.add("background", Int((max(0, total - demodulation) * 1000).rounded()))
        w.addRaw("cpu", cpu.result)
        var tracked = JSONObjectWriter()
        tracked.add("all", tracks.tracks - before.tracks)
        tracked.add("single_message", tracks.singleMessageTracks - before.singleMessageTracks)
        w.addRaw("tracks", tracked.result)
        w.add("messages", frames)
        return w.result
    }

    /// The `local` object of a period.
    static func localObject(_ local: LocalStatistics) -> String {
        var w = JSONObjectWriter()
        w.add("samples_processed", local.samplesProcessed)
        w.add("samples_dropped", local.samplesDropped)
        w.add("modeac", 0)
        w.add("modes", local.preambles)
        w.add("bad", max(0, local.preambles - local.acceptedFrames))
        w.add("unknown_icao", 0)
        w.addRaw("accepted", "[" + local.accepted.map(String.init).joined(separator: ",") + "]")
        if local.acceptedFrames > 0 {
            w.add("signal", local.meanSignalDBFS, decimals: 1)
            w.add("peak_signal", local.peakSignalDBFS, decimals: 1)
        }
        if let noise = local.meanNoiseDBFS { w.add("noise", noise, decimals: 1) }
        w.add("strong_signals", local.strongSignals)
        if let clipped = local.clippedShare { w.add("clipped", clipped * 100, decimals: 4) }
        if let gain = local.gainDB {
            w.add("gain_db", gain, decimals: 1)
            w.add("gain_changes", local.gainChanges)
            w.add("gain_change_samples", local.gainChangeSamples)
        }
        if let level = local.demodulatorLevel {
            w.add("demod_level", level)
            w.add("demod_level_changes", local.levelChanges)
            let seconds = local.secondsAtLevel.map { DecimalText.fixed($0, places: 1) }
            w.addRaw("demod_level_seconds", "[" + seconds.joined(separator: ",") + "]")
        }
        return w.result
    }
}
