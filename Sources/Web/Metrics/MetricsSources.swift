import Outputs
import Pipeline
import Tracking

/// Where `/metrics` reads the daemon's figures when it is scraped. Nothing is counted twice:
/// each figure is read from the counter the statistics line, stats.json or aircraft.json
/// already keep. What the web server's module cannot see (the sources, OpenSky) comes
/// through closures the daemon wires up.
package struct MetricsSources: Sendable {
    /// The pipeline: messages, sources, and the local receiver's samples and levels.
    package var pipeline: FramePipeline
    /// The tracker: tracks and aircraft.
    package var tracker: LiveTracker
    /// Frames by the label of the source they came from, one entry per source that has fed
    /// the pipeline (`[("replay", 1234), ("beast-in 10.0.0.2:30005", 56)]`).
    package var sourceFrames: @Sendable () -> [(source: String, frames: Int)]
    /// OpenSky requests by outcome; empty without the OpenSky source.
    package var openSkyRequests: @Sendable () -> [(outcome: String, requests: Int)]
    /// The TCP outputs (Beast, SBS, AVR) whose clients are counted.
    package var outputs: [TCPBroadcastServer]
    /// Items each bounded queue between the stages has dropped so far, by queue.
    package var queueDrops: @Sendable () -> [(queue: String, dropped: Int)]
    /// Processor time the whole process has used so far, in seconds.
    package var processSeconds: @Sendable () -> Double

    /// Sources over `pipeline` and `tracker`; frames by source default to the pipeline's own
    /// per-source counts.
    package init(
        pipeline: FramePipeline, tracker: LiveTracker,
        sourceFrames: (@Sendable () -> [(source: String, frames: Int)])? = nil,
        openSkyRequests: @escaping @Sendable () -> [(outcome: String, requests: Int)] = { [] },
        outputs: [TCPBroadcastServer] = [],
        queueDrops: @escaping @Sendable () -> [(queue: String, dropped: Int)] = { [] },
        processSeconds: @escaping @Sendable () -> Double = StatsJSON.Snapshot.processSeconds
    ) {
        self.pipeline = pipeline
        self.tracker = tracker
        self.sourceFrames = sourceFrames ?? { pipeline.sourceCounts.map { (source: $0.label, frames: $0.frames) } }
        self.openSkyRequests = openSkyRequests
        self.outputs = outputs
        self.queueDrops = queueDrops
        self.processSeconds = processSeconds
    }
}
