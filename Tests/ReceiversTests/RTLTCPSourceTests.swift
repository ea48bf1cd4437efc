import Foundation
import IQ
import Logging
import ModeS
import ModeSDemod
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// A dongle served by rtl_tcp, against a small fake of the server: it is set up with the
/// daemon's settings and its samples give the same sky as replaying them from a file.
@Suite(.tags(.slow)) struct RTLTCPSourceTests {
    /// A fake rtl_tcp: greets each connection (or sends `greeting` instead), keeps the
    /// commands it is sent, and streams `samples` in pieces of `piece` bytes to the first
    /// connection only (a reconnection gets the greeting alone, so no frame is counted twice).
    final class FakeServer: @unchecked Sendable {
        let channel: any Channel
        let received = NIOLockedValueBox<[UInt8]>([])
        var port: Int { channel.localAddress!.port! }

        /// `staysOpen`: the server keeps the connection open once every byte is sent, like a
        /// dongle that keeps streaming, instead of closing it.
        init(
            samples: [UInt8], greeting: [UInt8] = Array("RTL0".utf8) + [0, 0, 0, 5, 0, 0, 0, 29], piece: Int = 16_384,
            staysOpen: Bool = false
        ) throws {
            let received = self.received
            let connections = NIOLockedValueBox(0)
            channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    let first = connections.withLockedValue { count in
                        defer { count += 1 }
                        return count == 0
                    }
                    return child.pipeline.addHandler(
                        Streamer(
                            greeting: greeting, samples: first ? samples : [], piece: piece,
                            received: received, staysOpen: staysOpen))
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        }

        deinit { try? channel.close().wait() }

        /// The commands received: (command byte, argument).
        var commands: [(UInt8, UInt32)] {
            let bytes = received.withLockedValue { $0 }
            return stride(from: 0, to: bytes.count - 4, by: 5).map { at in
                (bytes[at], bytes[at + 1..<at + 5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
        }
    }

    final class Streamer: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let greeting: [UInt8], samples: [UInt8], piece: Int
        let received: NIOLockedValueBox<[UInt8]>
        let staysOpen: Bool

        init(greeting: [UInt8], samples: [UInt8], piece: Int, received: NIOLockedValueBox<[UInt8]>, staysOpen: Bool) {
            self.greeting = greeting
            self.samples = samples
            self.piece = piece
            self.received = received
            self.staysOpen = staysOpen
        }

        func channelActive(context: ChannelHandlerContext) {
            context.write(NIOAny(context.channel.allocator.buffer(bytes: greeting)), promise: nil)
            var offset = 0
            while offset < samples.count {
                let end = min(samples.count, offset + piece)
                context.write(NIOAny(context.channel.allocator.buffer(bytes: samples[offset..<end])), promise: nil)
                offset = end
            }
            // Once every byte is written (however slowly a loaded machine reads them), end
            // like a server that stopped; a close before that would drop the unwritten rest.
            // Only the sending side is shut: a client slowed by a loaded machine may send its
            // setup commands after this, and a socket closed for reading would answer them
            // with a reset, which throws away what the client had not read yet.
            let channel = context.channel
            guard !staysOpen else {
                context.flush()
                return
            }
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(bytes: []))).whenComplete { _ in
                channel.eventLoop.scheduleTask(in: .milliseconds(300)) { channel.close(mode: .output, promise: nil) }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            received.withLockedValue { $0 += bytes }
        }
    }

    static let recording = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/quiet-sky.cu8").path

    @Test func aServedDongleGivesTheSameSkyAsItsRecording() async throws {
        // The frames of the recording replayed from its file.
        let replayed = WiredTracker(receiver: nil)
        try await ReplaySource(
            configuration: .init(path: Self.recording, format: .cu8, sampleRate: .twoPointFourMega),
            logger: Logger(label: "test")
        ).run(into: replayed)
        #expect(replayed.counters.frames > 50)
        // Taken now: the tracker's clock is the wall clock, and a slow run below could outlast
        // the minute after which aircraft expire.
        let replayedAircraft = Set(replayed.snapshot().aircraft.map(\.icaoHex))

        let samples = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.recording)))
        let server = try FakeServer(samples: samples)
        var tuner = RTLSDRDevice.Configuration()
        tuner.gain = .decibels(42.1)
        tuner.ppm = -3
        let source = RTLTCPSource(
            host: "127.0.0.1", port: server.port, configuration: tuner, logger: Logger(label: "test"),
            maximumBackoff: .seconds(60))
        let tracker = WiredTracker(receiver: nil)
        let task = Task { try await source.run(into: tracker) }
        // The whole recording, then the server's close (the source then waits a second to
        // reconnect, and the second connection is given the recording again).
        let deadline = ContinuousClock.now + .seconds(60)
        while tracker.counters.frames < replayed.counters.frames, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        try await task.value

        // Set up as asked: rate, frequency, correction, manual gain in tenths of a dB.
        let commands = server.commands
        #expect(commands.map(\.0).prefix(5) == [0x02, 0x01, 0x05, 0x03, 0x04])
        #expect(commands.map(\.1).prefix(5) == [2_400_000, 1_090_000_000, UInt32(bitPattern: -3), 1, 421])
        #expect(source.connectionCount >= 1)
        #expect(tracker.counters.frames == replayed.counters.frames)
        #expect(Set(tracker.snapshot().aircraft.map(\.icaoHex)) == replayedAircraft)
        #expect(tracker.sourceCounts.map(\.label) == ["rtltcp 127.0.0.1:\(server.port)"])
        #expect(source.droppedBytes == 0)
    }

    @Test func samplesTheDemodulatorCannotKeepUpWithAreCountedWhileConnected() async throws {
        // Ten times the recording at once: 38 MB, of which the source's ring holds 8 MiB.
        // Loopback delivers them faster than the demodulator reads them, so some are dropped
        // while the connection is still open, and the count says so then. (How many depends
        // on how fast the demodulator runs beside the server's thread.)
        let recording = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.recording)))
        let samples = Array([[UInt8]](repeating: recording, count: 10).joined())
        let server = try FakeServer(samples: samples, piece: 1 << 20, staysOpen: true)
        // A silence long enough to end the connection never comes within the test.
        let source = RTLTCPSource(
            host: "127.0.0.1", port: server.port, logger: Logger(label: "test"),
            maximumBackoff: .seconds(60), readTimeout: .seconds(600))
        let task = Task { try await source.run(into: WiredTracker(receiver: nil)) }
        let deadline = ContinuousClock.now + .seconds(120)
        // Settled once the count stays put for half a second: everything sent is then either
        // in the ring's hands or counted as dropped.
        var live = 0
        while ContinuousClock.now < deadline {
            live = source.droppedBytes
            try await Task.sleep(for: .milliseconds(live > 0 ? 500 : 50))
            if live > 0, source.droppedBytes == live { break }
        }
        #expect(source.connectionCount == 1, "the server never closed: the drops are of the live connection")
        #expect(live > 0, "dropped \(live) of \(samples.count) bytes")
        #expect(
            live <= samples.count - SampleRing.defaultSlotCount * SampleRing.defaultSlotSize,
            "the ring's slots were taken, not dropped")
        task.cancel()
        try await task.value
        // The connection's count stays once it is over.
        #expect(source.droppedBytes == live)
    }

    @Test func aServerThatIsNotRTLTCPIsSaidSo() async throws {
        let server = try FakeServer(samples: [], greeting: Array("HTTP/1.1 400".utf8))
        let log = LogRecorder()
        let source = RTLTCPSource(
            host: "127.0.0.1", port: server.port, logger: log.logger, maximumBackoff: .seconds(60))
        let task = Task { try await source.run(into: WiredTracker(receiver: nil)) }
        let deadline = ContinuousClock.now + .seconds(30)
        while !log.text.contains("not an rtl_tcp server"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        try await task.value
        #expect(
            log.text.contains(
                "rtltcp 127.0.0.1:\(server.port): not an rtl_tcp server (its first bytes are not \"RTL0\"); retrying in 1.0 seconds"
            ))
        #expect(server.received.withLockedValue { $0.isEmpty }, "no command went to a server that is not rtl_tcp")
    }

    @Test func settingsBeyondWhatTheProtocolCarriesAreSentAsTheNearestNeverTrapping() {
        var tuner = RTLSDRDevice.Configuration()
        tuner.ppm = Int.min
        tuner.gain = .decibels(1e300)
        var commands = RTLTCPSource(host: "127.0.0.1", port: 1, configuration: tuner, logger: Logger(label: "test"))
            .setupCommands
        #expect(commands[2] == RTLTCPSource.Command.frequencyCorrection.bytes(UInt32(bitPattern: Int32.min)))
        #expect(commands.last == RTLTCPSource.Command.gain.bytes(1_000))
        tuner.gain = .decibels(.nan)
        commands =
            RTLTCPSource(host: "127.0.0.1", port: 1, configuration: tuner, logger: Logger(label: "test")).setupCommands
        #expect(commands.last == RTLTCPSource.Command.gain.bytes(0))
    }

    @Test func greetingsAreReadFromTheirBytes() throws {
        let greeting = try RTLTCPSource.Greeting(Array("RTL0".utf8) + [0, 0, 0, 5, 0, 0, 0, 29])
        #expect(greeting.tunerType == 5 && greeting.gainCount == 29)
        #expect(throws: RTLTCPSource.ProtocolError.self) {
            try RTLTCPSource.Greeting(Array("RTL1".utf8) + [0, 0, 0, 5, 0, 0, 0, 29])
        }
        #expect(throws: RTLTCPSource.ProtocolError.self) { try RTLTCPSource.Greeting([0x52]) }
    }
}
