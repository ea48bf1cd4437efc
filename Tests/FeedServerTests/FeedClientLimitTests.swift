import FeedProtocol
import Foundation
import NIOCore
import Support
import TestSupport
import Testing
import Tracking

@testable import FeedServer

@Suite struct FeedClientLimitTests {
    @Test func clientsBeyondTheLimitAreRefusedWithOneErrorLine() async throws {
        let configuration = FeedConfiguration(
            socketPath: TestSky.socketPath(),
            radar: RadarConfiguration(frameInterval: 0.1), maxClients: 3)
        let server = try await FeedServer.bind(
            configuration: configuration, provider: TestSky.provider(TestSky.crowd(2)))
        let running = Task { try await server.run() }
        defer { running.cancel() }
        let path = configuration.socketPath

        var held: [SocketTestClient] = []
        for _ in 0..<3 {
            let client = try await SocketTestClient.connect(path: path)
            #expect(await client.waitFor { $0.lines.contains { $0.line.hasPrefix("{\"type\":\"hello\"") } })
            held.append(client)
        }
        var refused: [SocketTestClient] = []
        for _ in 0..<5 { refused.append(try await SocketTestClient.connect(path: path)) }
        for client in refused {
            #expect(await client.waitFor { $0.closed })
            // Exactly one line, the error, in the feed's format; no hello, no frame.
            #expect(client.lines.count == 1)
            let line = try FeedLine(parsing: try #require(client.lines.first))
            #expect(line == .error("the feed is serving its maximum of 3 clients; try again later"))
            await client.close()
        }
        let statistics = await server.statistics()
        #expect(statistics.clientsRefused == 5)
        #expect(statistics.clients == 3)

        // The clients already in still get frames, and a place freed is a place taken.
        for client in held {
            let before = client.objects(ofType: "frame").count
            #expect(
                await client.waitFor { state in
                    state.lines.filter { $0.line.hasPrefix("{\"type\":\"frame\"") }.count >= before + 3
                })
            #expect(!client.isClosed)
        }
        await held[0].close()
        let deadline = Date().addingTimeInterval(30)
        while await server.statistics().clients > 2, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let late = try await SocketTestClient.connect(path: path)
        #expect(await late.waitFor { $0.lines.contains { $0.line.hasPrefix("{\"type\":\"frame\"") } })
        #expect(late.objects(ofType: "error").isEmpty)
        await late.close()
        for client in held.dropFirst() { await client.close() }
        running.cancel()
        _ = await running.result
    }

    @Test func aBurstOfRefusalsIsOneLogLine() {
        var throttle = LogThrottle(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(throttle.record(now: start) == 1)
        for step in 1...999 { #expect(throttle.record(now: start + .milliseconds(step)) == nil) }
        // The next line, once the interval has passed, covers everything since the last one.
        #expect(throttle.record(now: start + .seconds(11)) == 1000)
        #expect(throttle.record(now: start + .seconds(12)) == nil)
    }

    @Test func aThrottleWithABurstLetsThatManyLinesThroughAnInterval() {
        var throttle = LogThrottle(interval: .seconds(10), burst: 3)
        let start = ContinuousClock.now
        #expect((0..<3).map { throttle.record(now: start + .seconds($0)) } == [1, 1, 1])
        #expect(throttle.record(now: start + .seconds(5)) == nil)
        // The first line leaves the interval at +10 s: one more line, covering both events.
        #expect(throttle.record(now: start + .seconds(10)) == 2)
        #expect(throttle.record(now: start + .seconds(10.5)) == nil)
    }

    @Test func atLeastOneClient() async {
        let configuration = FeedConfiguration(socketPath: TestSky.socketPath(), maxClients: 0)
        await #expect(throws: FeedError.invalidConfiguration("the feed must allow at least 1 client")) {
            _ = try await FeedServer.bind(configuration: configuration, provider: TestSky.provider([]))
        }
    }
}
