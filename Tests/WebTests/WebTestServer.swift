import FeedProtocol
import FeedServer
import Foundation
import Logging
import SkyProjection
import Synchronization
import TestSupport
import Tracking

@testable import Web

/// Fixed documents for `/data`.
struct FixedDocuments: DataDocuments {
    var aircraft = "{\"now\":1,\"messages\":0,\"aircraft\":[]}\n"
    var receiver = "{\"version\":\"test\",\"refresh\":1000,\"history\":0}\n"
    func aircraftJSON() async -> String { aircraft }
    func receiverJSON() async -> String { receiver }
}

/// A feed server on a temporary socket and a web server on a free port in front of it, both
/// running until `stop()`.
final class WebTestServer: Sendable {
    let feed: FeedServer
    let web: WebServer
    let port: Int
    private let tasks: Mutex<[Task<Void, Never>]>

    /// Starts both with a sky of `aircraft`, serving `/metrics` from `metrics` when given and
    /// HTTPS with `tls` when given; `adjust` changes the web configuration.
    static func start(
        aircraft: [AircraftState] = TestSky.crowd(30), frameInterval: Double = 0.2,
        maxClients: Int = 16, stallTimeout: Double? = nil, metrics: MetricsSources? = nil,
        tls: TLSCredentials? = nil, adjust: (inout WebConfiguration) -> Void = { _ in }
    ) async throws -> WebTestServer {
        var logger = Logger(label: "web-test")
        logger.logLevel = .warning
        let feed = try await FeedServer.bind(
            configuration: FeedConfiguration(
                socketPath: TestSky.socketPath(),
                radar: RadarConfiguration(frameInterval: frameInterval),
                stallTimeout: stallTimeout, maxClients: maxClients, logger: logger),
            provider: TestSky.provider(aircraft))
        let port = Mutex<Int?>(nil)
        var configuration = WebConfiguration(port: 0, logger: logger)
        configuration.onListening = { value in port.withLock { $0 = value } }
        adjust(&configuration)
        let web = WebServer(
            configuration: configuration, feed: feed, documents: FixedDocuments(), tls: tls, metrics: metrics)
        let feedTask = Task { _ = try? await feed.run() }
        let webTask = Task { _ = try? await web.run() }
        let deadline = Date().addingTimeInterval(60)
        while port.withLock({ $0 }) == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard let listening = port.withLock({ $0 }) else { throw TestFailure("the web server did not start") }
        return WebTestServer(feed: feed, web: web, port: listening, tasks: [feedTask, webTask])
    }

    private init(feed: FeedServer, web: WebServer, port: Int, tasks: [Task<Void, Never>]) {
        self.feed = feed
        self.web = web
        self.port = port
        self.tasks = Mutex(tasks)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await feed.shutdown()
        for task in tasks.withLock({ $0 }) { await task.value }
    }
}

/// A test's own failure with a message.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
