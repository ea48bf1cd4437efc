import Foundation
import Logging
import ServiceLifecycle
import TestSupport
import Testing

@testable import FeedServer

@Suite struct FeedServiceTests {
    @Test func stopsOnGracefulShutdownAndRemovesItsSocket() async throws {
        let path = TestSky.socketPath()
        let configuration = FeedConfiguration(socketPath: path, radar: RadarConfiguration(frameInterval: 0.1))
        let server = try await FeedServer.bind(
            configuration: configuration, provider: TestSky.provider(TestSky.crowd(3)))
        let group = ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "feed-test")))
        let running = Task { try await group.run() }
        let client = try await SocketTestClient.connect(path: path)
        await client.waitForLines { $0.count >= 2 }
        #expect(client.objects(ofType: "frame").count >= 1)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: path))
        await client.waitFor(timeout: 15) { $0.closed }
        #expect(client.isClosed)
    }
}
