import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
@testable import FeedServer
import ModeS

/// A feed client for tests: connects to the socket and records every line it receives with
/// its arrival time; or, with `reading: false`, connects and never reads a byte.
final class FeedTestClient: Sendable {
    struct Received: Sendable {
        var line: String
        var arrival: Double
    }

    /// What a client keeps: all lines, or for load tests only the frame headers.
    struct State: Sendable {
        var lines: [Received] = []
        var frames: [(seq: UInt64, time: Double, arrival: Double)] = []
        var closed = false
    }

    let channel: any Channel
    let state: NIOLockedValueBox<State>

    private init(channel: any Channel, state: NIOLockedValueBox<State>) {
        self.channel = channel
        self.state = state
    }

    static func connect(path: String, reading: Bool = true, keepLines: Bool = true,
                        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> FeedTestClient {
        let state = NIOLockedValueBox(State())
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.autoRead, value: reading)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineCollector(state: state, keepLines: keepLines))
                }
            }
            .connect(unixDomainSocketPath: path).get()
        return FeedTestClient(channel: channel, state: state)
    }

    func send(_ line: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: line + "\n"))
    }

    var lines: [String] { state.withLockedValue { $0.lines.map(\.line) } }
    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Waits until `condition` holds for the received lines, or `timeout` seconds pass (long, for
    /// a machine busy with other tests; it returns as soon as the condition holds).
    @discardableResult
    func waitForLines(timeout: Double = 30, _ condition: @Sendable ([String]) -> Bool) async -> [String] {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let current = lines
            if condition(current) { return current }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return lines
    }

    /// Parsed JSON objects of the lines of `type`.
    func objects(ofType type: String) -> [[String: Any]] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == type else { return nil }
            return object
        }
    }

    func close() async {
        try? await channel.close()
    }
}

/// Splits the byte stream into lines and records them.
private final class LineCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let state: NIOLockedValueBox<FeedTestClient.State>
    let keepLines: Bool
    var pending = ByteBuffer()

    init(state: NIOLockedValueBox<FeedTestClient.State>, keepLines: Bool) {
        self.state = state
        self.keepLines = keepLines
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        pending.writeBuffer(&incoming)
        let arrival = Date().timeIntervalSince1970
        while let newline = pending.withUnsafeReadableBytes({ raw -> Int? in
            guard let base = raw.baseAddress, let hit = memchr(base, 0x0A, raw.count) else { return nil }
            return UnsafeRawPointer(hit) - base
        }) {
            let line = pending.readString(length: newline)!
            pending.moveReaderIndex(forwardBy: 1)
            record(line, arrival: arrival)
        }
        pending.discardReadBytes()
    }

    private func record(_ line: String, arrival: Double) {
        if keepLines {
            state.withLockedValue { $0.lines.append(.init(line: line, arrival: arrival)) }
            return
        }
        // Frames begin {"type":"frame","seq":N,"time":T, in that order: read just that.
        guard line.hasPrefix("{\"type\":\"frame\",\"seq\":") else {
            state.withLockedValue { $0.lines.append(.init(line: line, arrival: arrival)) }
            return
        }
        let fields = line.utf8.prefix(80).split(separator: UInt8(ascii: ","), maxSplits: 3)
        guard fields.count >= 3,
              let seq = UInt64(String(decoding: fields[1].drop { $0 != UInt8(ascii: ":") }.dropFirst(), as: UTF8.self)),
              let time = Double(String(decoding: fields[2].drop { $0 != UInt8(ascii: ":") }.dropFirst(), as: UTF8.self))
        else { return }
        state.withLockedValue { $0.frames.append((seq, time, arrival)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLockedValue { $0.closed = true }
        context.fireChannelInactive()
    }
}
