import Foundation
import Logging
import ModeS
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// Beast frames as a sender writes them, with 0x1A escaped.
func beastFrame(_ hex: String, timestamp: UInt64 = 0x1A_0000_1A1A, signal: UInt8 = 0x80) -> [UInt8] {
    let bits = ModeSBits(hex: hex)!
    var body: [UInt8] = (0..<6).map { UInt8(truncatingIfNeeded: timestamp >> UInt64(40 - 8 * $0)) }
    body.append(signal)
    body += (0..<bits.byteCount).map { bits.byte($0) }
    var frame: [UInt8] = [0x1A, bits.bitCount == 56 ? 0x32 : 0x33]
    for byte in body {
        frame.append(byte)
        if byte == 0x1A { frame.append(0x1A) }
    }
    return frame
}

@Suite struct BeastFrameParserTests {
    func parse(_ bytes: [UInt8], parser: inout BeastFrameParser) -> [BeastFrameParser.Received] {
        var out: [BeastFrameParser.Received] = []
        bytes.withUnsafeBytes { parser.parse($0) { out.append($0) } }
        return out
    }

    @Test func framesWithEscapedBytesSurviveAnySplit() {
        let stream = beastFrame("8D4840D6202CC371C32CE0576098") + beastFrame("20001718029FCD", signal: 0x1A)
        for split in 0...stream.count {
            var parser = BeastFrameParser()
            let frames =
                parse(Array(stream[..<split]), parser: &parser) + parse(Array(stream[split...]), parser: &parser)
            #expect(frames.map(\.bits.hex) == ["8D4840D6202CC371C32CE0576098", "20001718029FCD"])
            #expect(frames.first?.timestamp == 0x1A_0000_1A1A)
            #expect(parser.malformed == 0)
        }
    }

    @Test func garbageAndCutFramesCostNothingAfterThem() {
        var parser = BeastFrameParser()
        let cut = Array(beastFrame("8D4840D6202CC371C32CE0576098").prefix(9))
        let stream: [UInt8] =
            [0x00, 0xFF, 0x13] + cut + beastFrame("8D40621D58C382D690C8AC2863A7")
            + [0x1A, 0x39, 0x01] + beastFrame("28001A1B5B4A1C")
        let frames = parse(stream, parser: &parser)
        #expect(frames.map(\.bits.hex) == ["8D40621D58C382D690C8AC2863A7", "28001A1B5B4A1C"])
        #expect(parser.malformed == 2)
    }

    @Test func signalByteBecomesDecibels() {
        var parser = BeastFrameParser()
        let frames = parse(beastFrame("8D4840D6202CC371C32CE0576098", signal: 255), parser: &parser)
        #expect(abs((frames.first?.signalLevel ?? -1) - 0) < 1e-9)
    }

    @Test func endpoints() {
        #expect(BeastInput.endpoint("127.0.0.1:30005")! == ("127.0.0.1", 30005))
        #expect(BeastInput.endpoint("[::1]:30005")! == ("::1", 30005))
        #expect(BeastInput.endpoint("host") == nil)
        #expect(BeastInput.endpoint("host:0") == nil)
        #expect(BeastInput.endpoint(":30005") == nil)
    }
}

@Suite struct BeastInputTests {
    /// A local Beast server that sends each connection one script, then closes it.
    final class ScriptedServer: @unchecked Sendable {
        let channel: Channel
        var port: Int { channel.localAddress!.port! }

        init(scripts: [[UInt8]]) throws {
            let counter = NIOLockedValueBox(0)
            channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    let index = counter.withLockedValue { value in
                        defer { value += 1 }
                        return value
                    }
                    let bytes = index < scripts.count ? scripts[index] : []
                    return child.pipeline.addHandler(SendAndClose(bytes: bytes))
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        }

        deinit { try? channel.close().wait() }
    }

    /// Writes its bytes once the connection is up, then closes it.
    final class SendAndClose: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes: [UInt8]
        init(bytes: [UInt8]) { self.bytes = bytes }

        func channelActive(context: ChannelHandlerContext) {
            let buffer = context.channel.allocator.buffer(bytes: bytes)
            let channel = context.channel
            context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Serves `scripts` to a Beast input (one per connection) until its tracker holds
    /// `count` aircraft (or 30 s pass); returns the tracker and the stopped input.
    func receive(_ scripts: [[UInt8]], untilAircraft count: Int) async throws -> (WiredTracker, BeastInput) {
        let server = try ScriptedServer(scripts: scripts)
        let tracker = WiredTracker(receiver: nil)
        let input = BeastInput(
            host: "127.0.0.1", port: server.port, logger: Logger(label: "test"),
            maximumBackoff: .milliseconds(200))
        let task = Task { try await input.run(into: tracker) }
        let deadline = ContinuousClock.now + .seconds(30)
        while tracker.snapshot().aircraft.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        try await task.value
        return (tracker, input)
    }

    @Test func readsRealFramesRejectsGarbageAndReconnects() async throws {
        let first =
            beastFrame("8D40621D58C386435CC412692AD6") + [0x1A, 0x33, 0x00, 0x1A, 0x77]
            + beastFrame("8DFFFFFF202CC371C32CE0576098")  // fails its CRC
        let second = beastFrame("8D40621D58C382D690C8AC2863A7") + beastFrame("8D4840D6202CC371C32CE0576098")
        let (tracker, input) = try await receive([first, second], untilAircraft: 2)
        let aircraft = tracker.snapshot().aircraft
        #expect(aircraft.map(\.icaoHex) == ["40621d", "4840d6"])
        #expect(aircraft.first?.position != nil, "the even/odd pair came over two connections")
        let counters = input.statistics
        #expect(counters.connections >= 2)
        #expect(counters.rejected == 1)
        #expect(counters.accepted == 3)
    }

    @Test func sendersTimestampsNeverMoveTheClockAndMultilaterationIsMarked() async throws {
        // One frame at the counter's maximum, one at a random time, then a multilateration
        // result (the marker instead of a time) for an aircraft heard from nowhere else.
        let script =
            beastFrame("8D40621D58C386435CC412692AD6", timestamp: 0xFFFF_FFFF_FFFF)
            + beastFrame("8D4840D6202CC371C32CE0576098", timestamp: 0x5A5A_1234_9876)
            + beastFrame("8D485020994409940838175B284F", timestamp: BeastFrameParser.multilaterationMarker)
        let (tracker, input) = try await receive([script], untilAircraft: 3)
        let wall = Date().timeIntervalSince1970
        let snapshot = tracker.snapshot()
        #expect(abs(snapshot.time - wall) < 5, "the tracker's clock is the wall clock")
        #expect(snapshot.aircraft.map(\.icaoHex) == ["40621d", "4840d6", "485020"])
        #expect(snapshot.aircraft.allSatisfy { abs($0.lastSeen - wall) < 60 })
        #expect(snapshot.aircraft.map(\.source) == [.adsb, .adsb, .mlat])
        #expect(input.statistics.multilaterated == 1)
        #expect(input.statistics.summary(label: input.label).contains("1 of them mlat"))
    }

    @Test func aRefusedConnectionIsRetriedNotFatal() async throws {
        let tracker = WiredTracker(receiver: nil)
        // Nothing listens on this port: the input must keep retrying until cancelled.
        let log = LogRecorder()
        let input = BeastInput(
            host: "127.0.0.1", port: 9, logger: log.logger,
            maximumBackoff: .milliseconds(100))
        let task = Task { try await input.run(into: tracker) }
        try await Task.sleep(for: .milliseconds(500))
        task.cancel()
        try await task.value
        #expect(input.statistics.connections == 0)
        // One short line a try, not the resolver's account of every address.
        #expect(log.problems.first == "beast-in 127.0.0.1:9: connection refused; retrying in 0.1 seconds")
    }

    /// A server that accepts every connection and then says nothing, as a host that lost
    /// power does (its connections stay up on this side).
    final class SilentServer: @unchecked Sendable {
        let channel: Channel
        let accepted = NIOLockedValueBox(0)
        var port: Int { channel.localAddress!.port! }

        init() throws {
            let accepted = accepted
            channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    accepted.withLockedValue { $0 += 1 }
                    return child.eventLoop.makeSucceededVoidFuture()
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        }

        deinit { try? channel.close().wait() }
    }

    @Test func aPeerThatFallsSilentIsGivenUpAndConnectedAgain() async throws {
        let server = try SilentServer()
        let log = LogRecorder()
        let input = BeastInput(
            host: "127.0.0.1", port: server.port, logger: log.logger,
            maximumBackoff: .milliseconds(200), readTimeout: .seconds(1))
        let task = Task { try await input.run(into: WiredTracker(receiver: nil)) }
        let deadline = ContinuousClock.now + .seconds(30)
        while server.accepted.withLockedValue({ $0 }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        try await task.value
        #expect(server.accepted.withLockedValue { $0 } >= 2, "connected again after the silence")
        #expect(
            log.problems.first
                == "beast-in 127.0.0.1:\(server.port): nothing received for 1 s; the peer is gone; retrying in 0.2 seconds"
        )
    }
}

/// How long a network source waits before it connects again.
@Suite struct ReconnectingBackoffTests {
    @Test func attemptsThatEndSoonWaitLongerEachTimeUpToTheMaximum() {
        var backoff = Reconnecting.Backoff(maximum: .seconds(30))
        // Refused, failed or accepted and closed at once: all the same.
        let waits = (0..<7).map { _ in backoff.wait(afterAttemptLasting: .milliseconds(5)) }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)])
    }

    @Test func aConnectionThatLastedStartsTheWaitsAgainHoweverItEnded() {
        var backoff = Reconnecting.Backoff(maximum: .seconds(30), settled: .seconds(30))
        for _ in 0..<4 { _ = backoff.wait(afterAttemptLasting: .zero) }
        #expect(backoff.wait(afterAttemptLasting: .seconds(29)) == .seconds(16))
        #expect(backoff.wait(afterAttemptLasting: .seconds(3600)) == .seconds(1))
        #expect(backoff.wait(afterAttemptLasting: .zero) == .seconds(2))
    }

    @Test func aMaximumBelowOneSecondIsTheFirstWaitToo() {
        var backoff = Reconnecting.Backoff(maximum: .milliseconds(200))
        #expect(backoff.wait(afterAttemptLasting: .zero) == .milliseconds(200))
        #expect(backoff.wait(afterAttemptLasting: .zero) == .milliseconds(200))
    }
}
