import Foundation
import Logging
import ModeS
import NIOCore
import Synchronization
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// Beast pushed to a listening port: every connection read and checked like a Beast input,
/// at most as many at once as allowed, a port in use a clear error.
@Suite struct BeastListenerTests {
    /// Waits (up to 30 s, returning as soon as it holds) for `condition`.
    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test func framesOfEveryConnectionAreTrackedUnderTheListenersLabel() async throws {
        let listener = try await BeastListener.bind(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let tracker = WiredTracker(receiver: nil)
        let task = Task { try await listener.run(into: tracker) }
        defer { task.cancel() }

        let first = try RawConnection(port: listener.port)
        first.send(
            beastFrame("8D40621D58C382D690C8AC2863A7") + [0x1A, 0x39, 0x00, 0x01]
                + beastFrame("8DFFFFFF202CC371C32CE0576098"))
        let second = try RawConnection(port: listener.port)
        second.send(beastFrame("8D4840D6202CC371C32CE0576098"))
        try await waitUntil { tracker.snapshot().aircraft.count == 2 && listener.statistics.rejected == 1 }

        #expect(Set(tracker.snapshot().aircraft.map(\.icaoHex)) == ["40621d", "4840d6"])
        let counters = listener.statistics
        #expect(counters.connections == 2)
        #expect(counters.accepted == 2)
        #expect(counters.rejected == 1, "the frame with a bad CRC")
        #expect(counters.malformed == 1, "the unknown frame type")
        #expect(listener.label == "beast-listen 127.0.0.1:\(listener.port)")
        #expect(tracker.sourceCounts.map(\.label) == [listener.label])
        #expect(tracker.sourceCounts.first?.frames == 2)
    }

    @Test func beyondItsLimitAConnectionIsClosedAndCounted() async throws {
        let listener = try await BeastListener.bind(
            host: "127.0.0.1", port: 0, maxConnections: 1, logger: Logger(label: "test"))
        let tracker = WiredTracker(receiver: nil)
        let task = Task { try await listener.run(into: tracker) }
        defer { task.cancel() }

        let kept = try RawConnection(port: listener.port)
        try await waitUntil { listener.statistics.connections == 1 }
        let extra = try RawConnection(port: listener.port)
        let answer = await extra.readAll(timeout: 20)
        #expect(answer.closed, "the connection over the limit is closed")
        #expect(listener.statistics.refused == 1)
        // The one it kept still works.
        kept.send(beastFrame("8D4840D6202CC371C32CE0576098"))
        try await waitUntil { tracker.snapshot().aircraft.count == 1 }
        #expect(tracker.snapshot().aircraft.map(\.icaoHex) == ["4840d6"])
    }

    @Test func runningOutOfDescriptorsPausesAcceptingAndEndsNothing() async throws {
        let listener = try await BeastListener.bind(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let tracker = WiredTracker(receiver: nil)
        let task = Task { try await listener.run(into: tracker) }
        defer { task.cancel() }
        let kept = try RawConnection(port: listener.port)
        try await waitUntil { listener.statistics.connections == 1 }

        // What the listening socket sees when accept finds no free descriptor.
        listener.server.channel.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept"))
        try await waitUntil { listener.statistics.acceptsPaused == 1 }
        #expect(listener.statistics.acceptsPaused == 1)

        // The connection it had still delivers, and a new one is taken after the pause.
        kept.send(beastFrame("8D4840D6202CC371C32CE0576098"))
        let later = try RawConnection(port: listener.port)
        later.send(beastFrame("8D40621D58C382D690C8AC2863A7"))
        try await waitUntil { tracker.snapshot().aircraft.count == 2 }
        #expect(Set(tracker.snapshot().aircraft.map(\.icaoHex)) == ["40621d", "4840d6"])
        #expect(listener.statistics.connections == 2)
        #expect(listener.statistics.summary(label: "x").hasSuffix("2 connections, accepting paused 1 time"))
    }

    @Test func aPortInUseIsOneClearLine() async throws {
        let first = try await BeastListener.bind(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        await #expect {
            _ = try await BeastListener.bind(host: "127.0.0.1", port: first.port, logger: Logger(label: "test"))
        } throws: { error in
            "\(error)" == "cannot listen on 127.0.0.1:\(first.port) for Beast input: the address is already in use"
        }
    }
}

/// The counters a listener's connections share: each connection adds what it found, so a
/// quiet connection read after a noisy one keeps the noisy one's malformed frames counted.
@Suite struct BeastConnectionReaderTests {
    @Test func connectionsAddToTheSharedCountersWhicheverReadsLast() {
        let counters = Mutex(BeastCounters())
        let tracker = WiredTracker(receiver: nil)
        var noisy = BeastConnectionReader(label: "test")
        var quiet = BeastConnectionReader(label: "test")
        noisy.read(
            ByteBuffer(bytes: [0x1A, 0x39, 0x00, 0x01] + beastFrame("8D40621D58C382D690C8AC2863A7")),
            into: tracker, counting: counters)
        quiet.read(ByteBuffer(bytes: beastFrame("8D4840D6202CC371C32CE0576098")), into: tracker, counting: counters)
        noisy.read(ByteBuffer(bytes: [0x1A, 0x39, 0x00, 0x01]), into: tracker, counting: counters)
        quiet.read(ByteBuffer(bytes: beastFrame("8D4840D6202CC371C32CE0576098")), into: tracker, counting: counters)
        let counted = counters.withLock { $0 }
        #expect(counted.malformed == 2)
        #expect(counted.accepted == 3)
    }
}
