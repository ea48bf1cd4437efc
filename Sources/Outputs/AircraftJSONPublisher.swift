import FoundationEssentials
import Pipeline
import Support
import Tracking

/// Rewrites `aircraft.json` and `stats.json` from the live tracker once a second, and
/// `receiver.json` at the start and then once a minute (a page reads it when it loads: a
/// first write that failed, or a file cleaned away from a temporary directory, comes back),
/// until cancelled.
package struct AircraftJSONPublisher: Sendable {
    /// The writer for the target directory.
    package let writer: AircraftJSONWriter
    private let documents: AircraftJSONDocuments
    private let tracker: LiveTracker
    private let pipeline: FramePipeline
    private let interval: Duration
    private let receiverInterval: Duration
    private let onError: @Sendable (String) -> Void

    /// A publisher of `tracker` and `pipeline`'s counts into `directory`, every
    /// `interval` (`receiver.json` every `receiverInterval`). `onError` hears each distinct
    /// write failure once (the daemon logs it and carries on: a full disk must not stop the
    /// receiver).
    package init(
        directory: String, tracker: LiveTracker, pipeline: FramePipeline, version: String,
        interval: Duration = .seconds(1), receiverInterval: Duration = .seconds(60),
        onError: @escaping @Sendable (String) -> Void
    ) {
        writer = AircraftJSONWriter(directory: directory)
        documents = AircraftJSONDocuments(
            tracker: tracker, pipeline: pipeline, version: version,
            refreshMilliseconds: Int((interval.inSeconds * 1000).rounded()))
        self.tracker = tracker
        self.pipeline = pipeline
        self.interval = interval
        self.receiverInterval = receiverInterval
        self.onError = onError
    }

    /// Writes `receiver.json`, then `aircraft.json` every interval until the task is cancelled.
    package func run() async throws {
        // The last failure of each kind of write, so each distinct one is reported once
        // (a receiver.json that cannot be written while the others can must not alternate
        // with their success into a line a second).
        var lastError: String?
        var lastReceiverError: String?
        func report(_ error: any Error, _ last: inout String?) {
            let text = "\(error)"
            if text != last { onError(text) }
            last = text
        }
        let clock = ContinuousClock()
        var deadline = clock.now
        var receiverDue = clock.now
        var history = StatsJSON.History(start: statsSnapshot())
        while !Task.isCancelled {
            if clock.now >= receiverDue {
                do {
                    try writer.write("receiver.json", documents.receiverJSON())
                    receiverDue = clock.now + receiverInterval
                    lastReceiverError = nil
                } catch {
                    report(error, &lastReceiverError)
                }
            }
            do {
                try publishOnce()
                try writer.writeStats(history.record(statsSnapshot()))
                lastError = nil
            } catch {
                report(error, &lastError)
            }
            deadline += interval
            if deadline < clock.now { deadline = clock.now }
            do { try await Task.sleep(until: deadline, clock: clock) } catch { break }
        }
    }

    /// The counts stats.json is made of, now.
    func statsSnapshot() -> StatsJSON.Snapshot {
        StatsJSON.Snapshot(
            time: tracker.now, statistics: ReceiverStatistics(pipeline: pipeline, tracker: tracker),
            processSeconds: StatsJSON.Snapshot.processSeconds())
    }

    /// Writes `aircraft.json` once, now.
    package func publishOnce() throws {
        try writer.write("aircraft.json", documents.aircraftJSON())
    }
}
