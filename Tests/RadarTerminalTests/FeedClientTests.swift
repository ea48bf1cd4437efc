import FeedProtocol
import FeedServer
import Foundation
import Synchronization
import TestSupport
import Testing
import Tracking

@testable import RadarTerminal

/// The terminal radar's feed client against the real feed server: frames, view commands,
/// and reconnection when the daemon goes away and comes back.
@Suite struct FeedClientTests {
    static let sky = [
        TestSky.aircraft(icao: 0x4840D6, latitude: 52.2, longitude: 4.7, altitudeFt: 19_685),
        TestSky.aircraft(icao: 0x4840D8, latitude: 52.6, longitude: 4.4, altitudeFt: 35_000)
    ]

    /// Everything a client reported.
    final class EventLog: Sendable {
        let events = Mutex<[FeedClient.Event]>([])

        func record(_ event: FeedClient.Event) { events.withLock { $0.append(event) } }

        var frames: [FeedFrame] {
            events.withLock { list in list.compactMap { if case .line(.frame(let frame)) = $0 { frame } else { nil } } }
        }

        var connections: Int {
            events.withLock { list in list.filter { if case .connected = $0 { true } else { false } }.count }
        }

        var disconnections: [String] {
            events.withLock { list in
                list.compactMap { if case .disconnected(let error) = $0 { error.message } else { nil } }
            }
        }

        /// Waits up to `timeout` seconds for `condition`.
        @discardableResult
        func wait(timeout: Double = 30, _ condition: () -> Bool) async -> Bool {
            let end = Date().addingTimeInterval(timeout)
            while Date() < end {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return condition()
        }
    }

    func startServer(path: String) async throws -> Task<Void, any Error> {
        let configuration = FeedConfiguration(socketPath: path, radar: RadarConfiguration(frameInterval: 0.05))
        let server = try await FeedServer.bind(configuration: configuration, provider: TestSky.provider(Self.sky))
        return Task { try await server.run() }
    }

    /// A daemon that stopped reading: its socket buffer fills, and the view commands the
    /// screen's loop sends are kept rather than waited on.
    @Test func viewCommandsNeverWaitForADaemonThatStoppedReading() async throws {
        let path = TestSky.socketPath()
        let listener = try SilentListener(path: path)
        defer { listener.close() }
        let log = EventLog()
        let client = FeedClient(path: path) { log.record($0) }
        defer { client.stop() }
        client.start()
        #expect(await log.wait { log.connections == 1 })
        let sent = Mutex(0)
        let long = RadarSettings(headingDeg: 90, rangeKm: 40).viewCommand + String(repeating: " ", count: 1_000)
        Thread.detachNewThread {
            for _ in 0..<5_000 {
                client.send(viewCommand: long)
                sent.withLock { $0 += 1 }
            }
        }
        // 5 MB of commands against a buffer of a few hundred kilobytes nobody reads.
        #expect(await log.wait(timeout: 20) { sent.withLock { $0 } == 5_000 }, "sent \(sent.withLock { $0 })")
    }

    @Test func readsFramesSendsTheViewAndReconnects() async throws {
        let path = TestSky.socketPath()
        let log = EventLog()
        let client = FeedClient(path: path) { log.record($0) }
        defer { client.stop() }
        // Started before the daemon: it keeps trying.
        client.send(viewCommand: RadarSettings(headingDeg: 90, rangeKm: 40).viewCommand)
        client.start()
        #expect(await log.wait { log.disconnections.count >= 2 })
        #expect(log.disconnections.first?.contains("No such file or directory") == true)
        #expect(log.frames.isEmpty)

        var server = try await startServer(path: path)
        #expect(await log.wait { log.frames.contains { $0.headingDeg == 90 } })
        let turned = try #require(log.frames.last { $0.headingDeg == 90 })
        #expect(turned.rangeKm == 40)
        // 4840d6 is at azimuth 42.61°: facing east it is at 312.61°; 4840d8 is 67 km north, beyond 40 km.
        #expect(turned.aircraft.map(\.icao) == ["4840d6"])
        #expect(abs((turned.aircraft.first?.bearingDeg ?? 0) - 312.61) < 0.02)
        #expect(log.connections == 1)

        // The daemon goes away.
        server.cancel()
        _ = await server.result
        #expect(await log.wait { log.disconnections.contains { $0.contains("closed the connection") } })
        let before = log.frames.count

        // It comes back: the client reconnects by itself and asks for its view again (the
        // first frames may come before the daemon has read that request).
        server = try await startServer(path: path)
        #expect(
            await log.wait {
                log.connections == 2 && log.frames.count > before
                    && log.frames.last.map { $0.headingDeg == 90 && $0.rangeKm == 40 } == true
            })

        // A new view takes effect on the live connection.
        client.send(viewCommand: RadarSettings(headingDeg: 180, rangeKm: 100).viewCommand)
        #expect(await log.wait { log.frames.last?.headingDeg == 180 })
        #expect(log.frames.last?.aircraft.count == 2)
        client.stop()
        server.cancel()
        _ = await server.result
    }

    @Test func fetchesOneFrameForAView() async throws {
        let path = TestSky.socketPath()
        let server = try await startServer(path: path)
        defer { server.cancel() }
        let frame = try await onOwnThread {
            try FeedFrameFetcher.fetch(
                path: path, viewCommand: RadarSettings(headingDeg: 180, rangeKm: 100).viewCommand, timeout: 30)
        }
        #expect(frame.headingDeg == 180)
        #expect(Set(frame.aircraft.map(\.icao)) == ["4840d6", "4840d8"])
        let plain = try await onOwnThread { try FeedFrameFetcher.fetch(path: path, viewCommand: nil, timeout: 30) }
        #expect(plain.headingDeg == 0)

        await #expect(throws: FeedClientError.self) {
            try await onOwnThread {
                try FeedFrameFetcher.fetch(path: path, viewCommand: #"{"type":"view","heading_deg":400}"#, timeout: 30)
            }
        }
        do {
            _ = try await onOwnThread {
                try FeedFrameFetcher.fetch(path: path, viewCommand: #"{"type":"view","range_km":0}"#, timeout: 30)
            }
            Issue.record("a frame for a view the daemon refuses")
        } catch let error as FeedClientError {
            // Refused, not failed: the fetcher gives up at once instead of retrying.
            #expect(error.kind == .refused)
            #expect(error.message.contains("the daemon refused the view: range_km must be between 0.1 and 1000"))
        }
        server.cancel()
        _ = await server.result
    }

    @Test func noDaemonIsAClearErrorAfterTheTimeout() async {
        let path = TestSky.socketPath()
        // Timed inside the task, so waiting for a thread on a busy machine does not count.
        guard
            let (outcome, elapsed) = try? await onOwnThread({ () -> (Result<FeedFrame, FeedClientError>, Double) in
                let start = Date()
                let result = Result { () throws(FeedClientError) -> FeedFrame in
                    try FeedFrameFetcher.fetch(path: path, viewCommand: nil, timeout: 0.5)
                }
                return (result, Date().timeIntervalSince(start))
            })
        else { return }
        switch outcome {
        case .success:
            Issue.record("a frame without a daemon")
        case .failure(let error):
            #expect(
                error.message
                    == "no radar frame from \(path) within 0.5 s: cannot connect to \(path): No such file or directory")
            #expect(error.kind == .failed)
        }
        // It gives up after the timeout, not at once and not much later.
        #expect(elapsed >= 0.4 && elapsed < 5, "\(elapsed) s")
    }
}

/// A Unix socket that accepts connections and never reads from them: a daemon that hangs.
final class SilentListener: Sendable {
    let fd: Int32
    let accepted = Mutex<[Int32]>([])

    init(path: String) throws {
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        fd = socketFD
        var address = SocketPath.address(of: path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard socketFD >= 0, bound == 0, listen(socketFD, 4) == 0 else { throw POSIXError(.EIO) }
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(socketFD, nil, nil)
                guard connection >= 0 else { return }
                accepted.withLock { $0.append(connection) }
            }
        }
    }

    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Foundation.close(fd)
        for connection in accepted.withLock({ $0 }) { Foundation.close(connection) }
    }
}
