import Foundation
import ModeS
import Outputs
import Pipeline
import TestSupport
import Testing
import Tracking

@testable import Web

/// `/metrics`: a known reading rendered in Prometheus's text format, the last minute's
/// levels, and the endpoint as a scraper sees it.
@Suite struct MetricsTests {
    /// One sample line: the metric's name with its labels as written, and its value.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                Issue.record("not a sample line: \(line)")
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// Each family's `# TYPE` and `# HELP`, by name.
    static func families(_ text: String) -> (types: [String: String], helps: Set<String>) {
        var types: [String: String] = [:]
        var helps: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 3)
            if words.count >= 4, words[1] == "TYPE" { types[String(words[2])] = String(words[3]) }
            if words.count >= 4, words[1] == "HELP" { helps.insert(String(words[2])) }
        }
        return (types, helps)
    }

    @Test func aKnownReadingAppearsWithItsNamesLabelsAndValues() throws {
        var counters = FrameCounters()
        counters.frames = 158
        counters.framesByFormat[17] = 120
        counters.framesByFormat[11] = 30
        counters.framesByFormat[4] = 8
        counters.stateUpdates = 7
        var tracks = Tracker.Counts()
        tracks.tracks = 9
        tracks.positions = 40
        var local = LocalStatistics()
        local.samplesProcessed = 2_400_000
        local.samplesDropped = 1_000
        local.preambles = 500
        local.accepted = [100, 20, 3]
        local.demodulationSeconds = 1.25
        local.strongSignals = 2
        local.noiseSamples = 75_000
        local.clippedSamples = 15
        local.gainDB = 44.5
        local.gainChanges = 3
        let reading = MetricsReading(
            statistics: ReceiverStatistics(counters: counters, tracks: tracks, local: local),
            aircraft: 12, aircraftWithPosition: 8, signalDBFS: -12.5, noiseDBFS: -35.25, processSeconds: 3.5,
            sourceFrames: [("replay", 155), ("rtl-sdr", 3)], openSkyRequests: [("ok", 4), ("rate_limited", 1)],
            clients: [("feed_socket", 2), ("websocket", 1), ("beast", 3)], httpRequests: 42,
            queueDrops: [("feed_outbox", 5), ("outputs", 0), ("mqtt_outbox", 11)],
            refusals: [("unknown_host", 2), ("malformed_request", 6)])
        let text = PrometheusExposition.render(reading)

        let expected: [String: Double] = [
            #"aviator_http_refused_total{reason="unknown_host"}"#: 2,
            #"aviator_http_refused_total{reason="malformed_request"}"#: 6,
            #"aviator_queue_dropped_total{queue="feed_outbox"}"#: 5,
            #"aviator_queue_dropped_total{queue="outputs"}"#: 0,
            #"aviator_queue_dropped_total{queue="mqtt_outbox"}"#: 11,
            #"aviator_messages_total{df="17"}"#: 120, #"aviator_messages_total{df="11"}"#: 30,
            #"aviator_messages_total{df="4"}"#: 8,
            #"aviator_source_frames_total{source="replay"}"#: 155, #"aviator_source_frames_total{source="rtl-sdr"}"#: 3,
            "aviator_state_updates_total": 7,
            "aviator_frames_accepted_total": 123,
            #"aviator_frames_repaired_total{bits="1"}"#: 20, #"aviator_frames_repaired_total{bits="2"}"#: 3,
            "aviator_preambles_total": 500,
            "aviator_samples_processed_total": 2_400_000, "aviator_samples_dropped_total": 1_000,
            "aviator_demodulator_cpu_seconds_total": 1.25, "aviator_process_cpu_seconds_total": 3.5,
            "aviator_strong_signals_total": 2,
            "aviator_samples_clipped_total": 15, "aviator_samples_measured_total": 75_000,
            "aviator_tuner_gain_db": 44.5, "aviator_tuner_gain_changes_total": 3,
            "aviator_signal_level_dbfs": -12.5, "aviator_noise_level_dbfs": -35.25,
            "aviator_aircraft": 12, "aviator_aircraft_with_position": 8,
            "aviator_tracks_total": 9, "aviator_positions_total": 40,
            #"aviator_opensky_requests_total{outcome="ok"}"#: 4,
            #"aviator_opensky_requests_total{outcome="rate_limited"}"#: 1,
            #"aviator_clients{server="feed_socket"}"#: 2, #"aviator_clients{server="websocket"}"#: 1,
            #"aviator_clients{server="beast"}"#: 3,
            "aviator_http_requests_total": 42
        ]
        let samples = Self.samples(text)
        #expect(samples == expected, "\(text)")
        #expect(PrometheusExposition.render(reading) == text, "two renderings of one reading read alike")

        // Every family is typed and explained; counters, and only counters, end in _total.
        let (types, helps) = Self.families(text)
        let names = Set(expected.keys.map { String($0.prefix { $0 != "{" }) })
        #expect(Set(types.keys) == names)
        #expect(helps == names)
        for (name, type) in types {
            #expect(type == (name.hasSuffix("_total") ? "counter" : "gauge"), "\(name)")
            #expect(name.hasPrefix("aviator_"))
        }
    }

    @Test func withNothingMeasuredTheLevelsAreLeftOutAndUnusedFormatsToo() {
        let reading = MetricsReading(
            statistics: ReceiverStatistics(
                counters: FrameCounters(), tracks: Tracker.Counts(),
                local: LocalStatistics()),
            aircraft: 0, aircraftWithPosition: 0)
        let samples = Self.samples(PrometheusExposition.render(reading))
        #expect(samples["aviator_aircraft"] == 0)
        #expect(samples["aviator_samples_processed_total"] == 0)
        #expect(samples["aviator_signal_level_dbfs"] == nil)
        #expect(samples["aviator_noise_level_dbfs"] == nil)
        #expect(!samples.keys.contains { $0.hasPrefix("aviator_messages_total") })
    }

    /// `count` frames at `dBFS` and as many noise samples at `noiseDBFS` added to `totals`.
    static func adding(_ count: Int, dBFS: Double, noiseDBFS: Double, to totals: LocalStatistics) -> LocalStatistics {
        var totals = totals
        for _ in 0..<count { totals.accept(dBFS: dBFS, repairedBits: 0) }
        totals.noisePowerSum += Double(count) * pow(10, noiseDBFS / 10)
        totals.noiseSamples += count
        return totals
    }

    @Test func levelsAreTheMeansOfTheLastMinuteNotOfTheWholeRun() throws {
        var window = LevelWindow(start: 0)
        let first = Self.adding(10, dBFS: -10, noiseDBFS: -30, to: LocalStatistics())
        let early = window.levels(at: 30, local: first)
        #expect(abs(try #require(early.signal) - -10) < 1e-9, "the first minute counts from the start")
        #expect(abs(try #require(early.noise) - -30) < 1e-9)

        // 70 s after the reading at 30 s: only what came since then counts (the whole run's
        // mean would be about -12.6 dBFS).
        let second = Self.adding(10, dBFS: -20, noiseDBFS: -40, to: first)
        let later = window.levels(at: 100, local: second)
        #expect(abs(try #require(later.signal) - -20) < 1e-9)
        #expect(abs(try #require(later.noise) - -40) < 1e-9)

        // A minute with nothing received has no level.
        let quiet = window.levels(at: 200, local: second)
        #expect(quiet.signal == nil)
        #expect(quiet.noise == nil)
    }

    @Test func aFloodOfScrapesKeepsAboutOneReadingASecond() {
        var window = LevelWindow(start: 0)
        var totals = LocalStatistics()
        for step in 1...20_000 {
            totals = Self.adding(1, dBFS: -15, noiseDBFS: -35, to: totals)
            _ = window.levels(at: Double(step) * 0.01, local: totals)
        }
        #expect(window.count <= Int(LevelWindow.span) + 2, "kept \(window.count) readings")
        #expect(window.count >= Int(LevelWindow.span) - 1, "kept \(window.count) readings")
    }

    @Test func theEndpointServesTheTrackersCountsWithTheHeadersOfEveryRoute() async throws {
        let tracker = WiredTracker(receiver: nil)
        for icao in [0x4840D6, 0x3C6586] as [UInt32] {
            tracker.accept(OutputTestFrames.allCall(icao: icao), at: tracker.now, from: "replay")
            tracker.accept(OutputTestFrames.altitudeReply(icao: icao, feet: 12_000), at: tracker.now, from: "replay")
        }
        let server = try await WebTestServer.start(
            metrics: MetricsSources(pipeline: tracker.pipeline, tracker: tracker.tracker))
        defer { Task { await server.stop() } }
        let page = try await WebServerTests.get(server.base + "/metrics")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"].first?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(page.headers["X-Content-Type-Options"].first == "nosniff")
        #expect(page.headers["Content-Security-Policy"].first == SecurityHeaders.contentSecurityPolicy)
        #expect(page.headers["Cache-Control"].first == "no-store")
        let samples = Self.samples(String(buffer: page.body))
        #expect(samples[#"aviator_messages_total{df="11"}"#] == 2)
        #expect(samples[#"aviator_messages_total{df="4"}"#] == 2)
        #expect(samples[#"aviator_source_frames_total{source="replay"}"#] == 4)
        #expect(samples["aviator_aircraft"] == 2)
        #expect(samples[#"aviator_clients{server="websocket"}"#] == 0)
        #expect(samples["aviator_http_requests_total"] == 1, "this request counts before it is answered")

        #expect(try await WebServerTests.get(server.base + "/metrics", method: .POST).status == 405)
        let head = try await WebServerTests.get(server.base + "/metrics", method: .HEAD)
        #expect(head.status == 200)
        #expect(head.body.readableBytes == 0)
    }

    @Test func withoutMetricsThePathIsNotFound() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        #expect(try await WebServerTests.get(server.base + "/metrics").status == 404)
        #expect(server.web.statistics().notFound == 1)
    }
}

/// `/metrics` with a network of thousands of receivers: the busiest sources each a series,
/// the rest summed in one, and a scrape that stays quick.
@Suite struct ManySourcesMetricsTests {
    @Test func twentyThousandSourcesBecomeABoundedSetOfSeriesRenderedQuickly() {
        let sources = (0..<20_000).map { (source: "mqtt r\($0)", frames: $0 % 1_000) }
        let reading = MetricsReading(
            statistics: ReceiverStatistics(
                counters: FrameCounters(), tracks: Tracker.Counts(), local: LocalStatistics()),
            aircraft: 0, aircraftWithPosition: 0, sourceFrames: sources)
        let start = ContinuousClock.now
        let text = PrometheusExposition.render(reading)
        let elapsed = ContinuousClock.now - start
        let series = MetricsTests.samples(text).filter { $0.key.hasPrefix("aviator_source_frames_total") }
        #expect(series.count <= 101, "\(series.count) series")
        #expect(series.values.reduce(0, +) == Double(sources.reduce(0) { $0 + $1.frames }), "every frame counted")
        #expect(text.utf8.count < 20_000, "\(text.utf8.count) bytes")
        #expect(elapsed < .milliseconds(500), "rendered in \(elapsed)")
    }

    @Test func aScrapeOfAPipelineFedByTwentyThousandSourcesIsQuick() {
        let tracker = WiredTracker(receiver: nil, clock: { 1_000 })
        let frame = Frame(bits: ModeSBits(hex: "8D4840D6202CC371C32CE0576098")!, address: 0x4840D6)
        for index in 0..<20_000 { tracker.accept(frame, at: 1_000, from: "mqtt r\(index)") }
        let sources = MetricsSources(pipeline: tracker.pipeline, tracker: tracker.tracker)
        let start = ContinuousClock.now
        let reading = MetricsReading(
            statistics: ReceiverStatistics(pipeline: tracker.pipeline, tracker: tracker.tracker), aircraft: 0,
            aircraftWithPosition: 0, sourceFrames: sources.sourceFrames())
        let text = PrometheusExposition.render(reading)
        let elapsed = ContinuousClock.now - start
        let series = MetricsTests.samples(text).filter { $0.key.hasPrefix("aviator_source_frames_total") }
        #expect(series.count == PrometheusExposition.sourcesListed + 1)
        #expect(series.values.reduce(0, +) == 1, "one frame tracked, the rest duplicates")
        #expect(elapsed < .milliseconds(500), "scraped in \(elapsed)")
    }
}
