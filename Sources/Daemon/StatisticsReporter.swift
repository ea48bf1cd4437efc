import FoundationEssentials
import Logging
import ModeS
import ModeSDemod
import Pipeline
import ServiceLifecycle
import Support
import Tracking

/// Logs one line of receiver statistics every interval and once more at shutdown: messages
/// per second, aircraft, aircraft with a position, dropped samples, current source, and
/// what the source itself counts (a Beast input's rejected and malformed frames).
package struct StatisticsReporter: Service {
    private let pipeline: FramePipeline
    private let tracker: LiveTracker
    private let interval: Duration
    private let droppedBytes: @Sendable () -> Int
    private let sourceDetails: @Sendable () -> String?
    private let logger: Logger

    /// A reporter over `pipeline` (messages, sources) and `tracker` (aircraft); `droppedBytes`
    /// reads the sample bytes lost so far and `sourceDetails` the source's own counters,
    /// appended to the line when not nil.
    package init(
        pipeline: FramePipeline, tracker: LiveTracker, interval: Duration = .seconds(60),
        droppedBytes: @escaping @Sendable () -> Int,
        sourceDetails: @escaping @Sendable () -> String? = { nil }, logger: Logger
    ) {
        self.pipeline = pipeline
        self.tracker = tracker
        self.interval = interval
        self.droppedBytes = droppedBytes
        self.sourceDetails = sourceDetails
        self.logger = logger
    }

    /// Reports until cancelled, then reports the totals.
    package func run() async throws {
        // Totals count from zero: a fast source may have delivered frames before this starts.
        let initial = FrameCounters()
        var previous = initial
        var previousLocal = LocalStatistics()
        var previousTime = ContinuousClock.now
        let started = previousTime
        while true {
            do {
                try await Task.sleep(for: interval)
            } catch {
                logger.info("\(line(since: initial, elapsed: ContinuousClock.now - started, total: true))")
                return
            }
            let now = ContinuousClock.now
            logger.info(
                "\(line(since: previous, local: previousLocal, elapsed: now - previousTime, total: false))")
            previous = pipeline.counters
            previousLocal = pipeline.local
            previousTime = now
        }
    }

    /// One statistics line for the counters gained since `earlier` (and the local receiver's
    /// since `local`) over `elapsed` ("totals:" instead of "statistics:" when `total`); the
    /// daemon also logs one on SIGUSR1.
    package func line(
        since earlier: FrameCounters, local: LocalStatistics = LocalStatistics(), elapsed: Duration, total: Bool
    ) -> String {
        let counters = pipeline.counters
        let seconds = max(elapsed.inSeconds, 1e-9)
        let messages = counters.frames - earlier.frames
        let aircraft = tracker.aircraftCounts()
        let samples = droppedBytes() / 2
        let rate = DecimalText.fixed(Double(messages) / seconds, places: 1)
        return (total ? "totals: " : "statistics: ")
            + "\(messages) messages (\(rate)/s), \(counters.correctedFrames - earlier.correctedFrames) repaired, "
            + "\(aircraft.all) aircraft, \(aircraft.withPosition) with position, "
            + "\(samples) samples dropped, " + Self.tuner(pipeline.local.since(local))
            + "source \(pipeline.source)" + (sourceDetails().map { " (\($0))" } ?? "")
    }

    /// "gain 44.5 dB (2 changes), noise -31.9 dBFS, 0.004% clipped, " for a dongle's period;
    /// the noise and clipping alone for a recording; nothing without local samples.
    static func tuner(_ period: LocalStatistics) -> String {
        guard let noise = period.meanNoiseDBFS else { return "" }
        var text = ""
        if let gain = period.gainDB {
            text += "gain \(DecimalText.fixed(gain, places: 1)) dB"
            if period.gainChanges > 0 { text += " (\(period.gainChanges) changes)" }
            text += ", "
        }
        text += "noise \(DecimalText.fixed(noise, places: 1)) dBFS, "
        text += "\(DecimalText.fixed((period.clippedShare ?? 0) * 100, places: 3))% clipped, "
        // The demodulator's level, once the governor has had to move it.
        if let level = period.demodulatorLevel, level < DemodulatorLevel.full.rawValue || period.levelChanges > 0 {
            text +=
                "demodulator \(DemodulatorLevel(clamping: level)) (level \(level), \(period.levelChanges) changes), "
        }
        return text
    }
}
