import Daemon
import FeedServer
import Foundation
import Logging
import ModeS
import Pipeline
import Receivers
import Testing
import Tracking

/// The composition root started in the test's own process, as the executable starts it, and
/// looked at from inside.
@Suite struct DaemonTests {
    /// The bundled busy-airport recording.
    static let busyAirport = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/busy-airport.cu8").path

    /// A daemon replaying the busy airport once into a feed socket of its own.
    static func configuration(socket: String) -> DaemonConfiguration {
        let receiver = GeoPoint(latitude: 52.3, longitude: 4.75)
        var configuration = DaemonConfiguration(
            version: "test", feed: FeedConfiguration(socketPath: socket, radar: RadarConfiguration()))
        configuration.receiver = receiver
        configuration.sources.local = .replay(
            ReplaySource.Configuration(path: busyAirport, format: .cu8, sampleRate: .twoPointFourMega))
        return configuration
    }

    @Test func aReplayFlowsThroughThePipelineIntoTheTracker() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("radar.sock").path
        let daemon = try await Daemon.start(Self.configuration(socket: socket), logger: Logger(label: "test"))
        // Claimed at start, before anything runs.
        #expect(FileManager.default.fileExists(atPath: socket))
        #expect(daemon.pipeline.source == "replay")
        let running = Task { try await daemon.run() }
        let deadline = Date().addingTimeInterval(60)
        while daemon.tracker.aircraftCounts().withPosition < 20, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        running.cancel()
        try await running.value
        let counters = daemon.pipeline.counters
        // The recording's 0.8 s hold 866 frames: by the time 20 aircraft have a position,
        // hundreds went through, every one counted by format.
        #expect(counters.frames > 200)
        #expect(counters.frames <= 866)
        #expect(counters.framesByFormat.reduce(0, +) == counters.frames)
        #expect(daemon.pipeline.sourceCounts.map(\.label) == ["replay"])
        #expect(daemon.tracker.aircraftCounts().withPosition >= 20)
        #expect(daemon.pipeline.local.samplesProcessed > 0)
    }

    @Test func aSocketAnotherDaemonHoldsIsOneClearError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("radar.sock").path
        let first = try await Daemon.start(Self.configuration(socket: socket), logger: Logger(label: "test"))
        await #expect(throws: DaemonError.self) {
            _ = try await Daemon.start(Self.configuration(socket: socket), logger: Logger(label: "test"))
        }
        await first.feed.shutdown()
    }
}
