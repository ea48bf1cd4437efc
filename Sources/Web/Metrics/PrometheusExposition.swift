import Outputs
import Pipeline
import Prometheus
import Tracking

/// A `MetricsReading` in Prometheus's text exposition format (version 0.0.4), every name
/// prefixed `aviator_` and carrying its unit (`_total` for counters, `_seconds`, `_dbfs`).
///
/// The daemon's counters are the record; swift-prometheus only renders them. Each scrape
/// fills fresh registries from one reading, so a figure is never kept in two places and a
/// series that no longer applies cannot linger with an old value. docs/web.md lists every
/// metric.
enum PrometheusExposition {
    /// The `Content-Type` of the text format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The text of `reading`.
    static func render(_ reading: MetricsReading) -> String {
        let out = Families()
        addMessages(reading, to: out)
        addDemodulator(reading, to: out)
        addTracking(reading, to: out)
        addServices(reading, to: out)
        return out.text
    }

    /// Messages by downlink format and frames by source, and the state vectors merged.
    private static func addMessages(_ reading: MetricsReading, to out: Families) {
        let statistics = reading.statistics
        for (format, count) in statistics.counters.framesByFormat.enumerated() where count > 0 {
            out.counter(
                "messages", count, labels: [("df", "\(format)")],
                help: "Mode S messages accepted from every source, by downlink format (24: formats 24 and above).")
        }
        for (source, frames) in busiest(reading.sourceFrames) {
            out.counter(
                "source_frames", frames, labels: [("source", source)],
                help: "Frames accepted, by the source they came from (the busiest; the rest summed as \"other\").")
        }
        out.counter(
            "state_updates", statistics.counters.stateUpdates,
            help: "Aircraft state vectors merged from OpenSky.")
    }

    /// Sources given a series of their own; a network of thousands of receivers would
    /// otherwise make a scrape of megabytes.
    static let sourcesListed = 100

    /// The `sourcesListed` sources with the most frames, then the others' sum as
    /// `other` (with any source already called so): at most `sourcesListed` + 1 series.
    static func busiest(_ sources: [(source: String, frames: Int)]) -> [(source: String, frames: Int)] {
        guard sources.count > sourcesListed else { return sources }
        let sorted = sources.sorted { ($0.frames, $1.source) > ($1.frames, $0.source) }
        var listed: [(source: String, frames: Int)] = []
        var rest = 0
        for source in sorted {
            if listed.count < sourcesListed, source.source != otherSource {
                listed.append(source)
            } else {
                let (sum, overflow) = rest.addingReportingOverflow(max(0, source.frames))
                rest = overflow ? .max : sum
            }
        }
        listed.append((otherSource, rest))
        return listed
    }

    /// The `source` label of the sources summed.
    static let otherSource = "other"

    /// The local demodulator's counts and levels, and the processor time it and the daemon
    /// took.
    private static func addDemodulator(_ reading: MetricsReading, to out: Families) {
        let local = reading.statistics.local
        out.counter(
            "frames_accepted", local.acceptedFrames,
            help: "Frames the local demodulator accepted, repaired or not.")
        for bits in 1..<local.accepted.count {
            out.counter(
                "frames_repaired", local.accepted[bits], labels: [("bits", "\(bits)")],
                help: "Frames the local demodulator accepted after repairing this many bits.")
        }
        out.counter(
            "preambles", local.preambles,
            help: "Candidate replies whose preamble the local demodulator examined.")
        out.counter("samples_processed", local.samplesProcessed, help: "IQ samples demodulated.")
        out.counter(
            "samples_dropped", local.samplesDropped,
            help: "IQ samples lost before demodulation (a full ring, a gap in the stream).")
        out.counter(
            "demodulator_cpu", unit: "seconds_total", local.demodulationSeconds,
            help: "Processor time spent demodulating.")
        out.counter(
            "process_cpu", unit: "seconds_total", reading.processSeconds,
            help: "Processor time of the whole daemon, user and system.")
        out.counter(
            "strong_signals", local.strongSignals,
            help: "Accepted frames above -3 dBFS (near clipping: the gain may be too high).")
        if let signal = reading.signalDBFS {
            out.gauge(
                "signal_level", unit: "dbfs", signal, help: "Mean power of the frames accepted in the last minute.")
        }
        if let noise = reading.noiseDBFS {
            out.gauge("noise_level", unit: "dbfs", noise, help: "Mean noise power of the samples of the last minute.")
        }
        out.counter(
            "samples_clipped", local.clippedSamples,
            help: "Measured samples (one in 32) with I or Q at the converter's rails: strong replies cut flat.")
        out.counter(
            "samples_measured", local.noiseSamples, help: "Samples measured for the noise and clipping (one in 32).")
        if let gain = local.gainDB {
            out.gauge("tuner_gain", unit: "db", gain, help: "The dongle's tuner gain now.")
            out.counter("tuner_gain_changes", local.gainChanges, help: "Times the adaptive gain moved.")
        }
        addDemodulatorLevel(local, to: out)
    }

    /// The demodulator's level now, its changes and the seconds of samples at each level.
    private static func addDemodulatorLevel(_ local: LocalStatistics, to out: Families) {
        guard let level = local.demodulatorLevel else { return }
        out.gauge(
            "demodulator_level", Double(level),
            help: "The demodulator's level now: 0 (plain) to 4 (every recovery technique).")
        out.counter(
            "demodulator_level_changes", local.levelChanges,
            help: "Times the governor moved the demodulator's level to keep within --demod-budget.")
        for (level, seconds) in local.secondsAtLevel.enumerated() {
            out.counter(
                "demodulator_level", unit: "seconds_total", seconds, labels: [("level", "\(level)")],
                help: "Seconds of samples demodulated at each level.")
        }
    }

    /// The aircraft tracked now, and the tracks and positions made so far.
    private static func addTracking(_ reading: MetricsReading, to out: Families) {
        let statistics = reading.statistics
        out.gauge("aircraft", Double(reading.aircraft), help: "Aircraft tracked now.")
        out.gauge(
            "aircraft_with_position", Double(reading.aircraftWithPosition),
            help: "Aircraft tracked now with a position that is not stale.")
        out.counter("tracks", statistics.tracks.tracks, help: "Aircraft tracks created.")
        out.counter("positions", statistics.tracks.positions, help: "Positions resolved from CPR frames.")
    }

    /// What the daemon's services did: requests to OpenSky, clients connected, HTTP requests,
    /// and what the bounded queues between the stages dropped.
    private static func addServices(_ reading: MetricsReading, to out: Families) {
        for (outcome, requests) in reading.openSkyRequests {
            out.counter(
                "opensky_requests", requests, labels: [("outcome", outcome)],
                help: "Requests to the OpenSky Network, by how they ended.")
        }
        for (server, clients) in reading.clients {
            out.gauge(
                "clients", Double(clients), labels: [("server", server)],
                help: "Clients connected now, by server.")
        }
        out.counter(
            "http_requests", Int(clamping: reading.httpRequests),
            help: "HTTP requests the web server answered.")
        for (reason, count) in reading.refusals {
            out.counter(
                "http_refused", count, labels: [("reason", reason)],
                help: "Requests and WebSocket messages the web server refused, by reason.")
        }
        for (queue, dropped) in reading.queueDrops {
            out.counter(
                "queue_dropped", dropped, labels: [("queue", queue)],
                help: "Items a bounded queue between the stages dropped because it was full, by queue.")
        }
    }

    /// The families of one scrape, each in a registry of its own so that the text lists them
    /// in the order they were added (a registry keeps its families in a dictionary), with
    /// each family's series sorted: two scrapes read alike. Every name is `aviator_`, the
    /// metric, then its unit. Counts are never negative (they are totals), but a negative one
    /// would trap in the registry, so it is clamped to zero.
    private final class Families {
        private var families: [(name: String, registry: PrometheusCollectorRegistry)] = []

        func counter(
            _ metric: String, unit: String = "total", _ value: Int, labels: [(String, String)] = [], help: String
        ) {
            let name = Self.name(metric, unit, help)
            registry(name).makeCounter(descriptor: name, labels: labels).increment(by: Int64(max(0, value)))
        }

        func counter(
            _ metric: String, unit: String, _ value: Double, labels: [(String, String)] = [], help: String
        ) {
            guard value.isFinite else { return }
            let name = Self.name(metric, unit, help)
            registry(name).makeCounter(descriptor: name, labels: labels).increment(by: max(0, value))
        }

        func gauge(_ metric: String, unit: String = "", _ value: Double, labels: [(String, String)] = [], help: String)
        {
            let name = Self.name(metric, unit, help)
            registry(name).makeGauge(descriptor: name, labels: labels).set(to: value)
        }

        /// The exposition text: the families in order, comments first, then the series.
        var text: String {
            families.map { family in
                let lines = family.registry.emitToString().split(separator: "\n")
                let comments = lines.filter { $0.hasPrefix("#") }
                let series = lines.filter { !$0.hasPrefix("#") }.sorted()
                return (comments + series).map { $0 + "\n" }.joined()
            }.joined()
        }

        private func registry(_ name: MetricNameDescriptor) -> PrometheusCollectorRegistry {
            if let family = families.first(where: { $0.name == name.name }) { return family.registry }
            let registry = PrometheusCollectorRegistry()
            families.append((name.name, registry))
            return registry
        }

        static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "aviator", metricName: metric, unitName: unit, helpText: help)
        }
    }
}
