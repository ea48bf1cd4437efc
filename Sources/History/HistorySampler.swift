import Pipeline
import Tracking

/// The task that feeds the history: once a second it takes the tracker's snapshot (as
/// aircraft.json does, off the receiving thread), turns it into rows with a
/// `HistoryRecorder` and adds them to the writer's queue; at each minute's end it adds the
/// minute's statistics; every `batchInterval` it adds the coverage cells that grew and asks
/// the writer for a batch.
package struct HistorySampler: Sendable {
    private let tracker: LiveTracker
    private let pipeline: FramePipeline
    private let writer: HistoryWriter
    private let batchInterval: Double

    /// A sampler of `tracker` and `pipeline`'s counts into `writer`, a batch every
    /// `batchInterval` seconds.
    package init(tracker: LiveTracker, pipeline: FramePipeline, writer: HistoryWriter, batchInterval: Double = 5) {
        self.tracker = tracker
        self.pipeline = pipeline
        self.writer = writer
        self.batchInterval = max(1, batchInterval)
    }

    /// Samples until the task is cancelled, then writes the last batch and closes the store.
    package func run() async {
        var recorder = HistoryRecorder(receiver: tracker.receiver)
        var minute = Self.minute(of: tracker.now)
        var messages = pipeline.counters.frames
        var local = pipeline.local
        var batchDue = tracker.now + batchInterval
        writer.scheduleFlush(now: tracker.now)
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(1)) } catch { break }
            let snapshot = tracker.snapshot()
            var records = recorder.observe(snapshot.aircraft, at: snapshot.time)
            let current = Self.minute(of: snapshot.time)
            if current != minute {
                let (frames, statistics) = (pipeline.counters.frames, pipeline.local)
                let period = statistics.since(local)
                records += recorder.closeMinute(
                    minute, messages: frames - messages, signalDBFS: period.meanSignalDBFS,
                    noiseDBFS: period.meanNoiseDBFS,
                    peakSignalDBFS: period.acceptedFrames > 0
                        ? period.peakSignalDBFS : nil)
                (minute, messages, local) = (current, frames, statistics)
            }
            if snapshot.time >= batchDue {
                writer.queue.add(records + recorder.changedCoverage())
                writer.scheduleFlush(now: snapshot.time)
                batchDue = snapshot.time + batchInterval
            } else {
                writer.queue.add(records)
            }
        }
        writer.queue.add(recorder.pendingSightings() + recorder.changedCoverage())
        await writer.finish(now: tracker.now)
    }

    /// The start of the minute `time` falls in, seconds since 1970.
    static func minute(of time: Double) -> Int { Int((time / 60).rounded(.down)) * 60 }
}
