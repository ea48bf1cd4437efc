import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A client for the servers' tests, over a Unix socket (the feed) or TCP (the outputs): it
/// records what arrives — raw bytes, lines with their arrival times, or for load tests only
/// the frame headers — or, with `reading: false`, connects and never reads a byte (a client
/// that stopped reading, which the servers must cut off without slowing anyone else).
package final class SocketTestClient: Sendable {
    /// How the client keeps what arrives.
    package enum Keep: Sendable {
        /// Every byte.
        case bytes
        /// Every line, with its arrival time.
        case lines
        /// Of feed frames only `seq`, `time` and the arrival time; other lines whole.
        case frameHeaders
    }

    /// One line and when it arrived (seconds since 1970).
    package struct Received: Sendable {
        /// The line, without its newline.
        package var line: String
        /// When it arrived.
        package var arrival: Double
    }

    /// Everything received so far.
    package struct State: Sendable {
        /// The bytes, when keeping bytes.
        package var bytes: [UInt8] = []
        /// The lines, when keeping lines (and the non-frame lines when keeping frame headers).
        package var lines: [Received] = []
        /// The frame headers, when keeping them.
        package var frames: [(seq: UInt64, time: Double, arrival: Double)] = []
        /// Whether the server closed the connection.
        package var closed = false
    }

    /// The connection.
    package let channel: any Channel
    /// What arrived, under a lock.
    package let state: NIOLockedValueBox<State>

    private init(channel: any Channel, state: NIOLockedValueBox<State>) {
        self.channel = channel
        self.state = state
    }

    /// Connects to the Unix socket at `path`.
    package static func connect(path: String, reading: Bool = true, keep: Keep = .lines) async throws
        -> SocketTestClient
    {
        try await connect(reading: reading, keep: keep) { try await $0.connect(unixDomainSocketPath: path).get() }
    }

    /// Connects to TCP `port` on the loopback address; a client that does not read gets a tiny
    /// receive buffer, so the server sees it fall behind at once.
    package static func connect(port: Int, reading: Bool = true, keep: Keep = .bytes) async throws -> SocketTestClient {
        try await connect(reading: reading, keep: keep, receiveBuffer: reading ? nil : 4096) {
            try await $0.connect(host: "127.0.0.1", port: port).get()
        }
    }

    private static func connect(
        reading: Bool, keep: Keep, receiveBuffer: Int? = nil,
        _ open: (ClientBootstrap) async throws -> any Channel
    ) async throws -> SocketTestClient {
        let state = NIOLockedValueBox(State())
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: reading)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: receiveBuffer) }
        bootstrap = bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(Collector(state: state, keep: keep))
            }
        }
        return SocketTestClient(channel: try await open(bootstrap), state: state)
    }

    /// Sends `text` as it is.
    package func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text))
    }

    /// Sends one line (a newline is added).
    package func sendLine(_ line: String) async throws {
        try await send(line + "\n")
    }

    /// The bytes received.
    package var bytes: [UInt8] { state.withLockedValue { $0.bytes } }
    /// The lines received.
    package var lines: [String] { state.withLockedValue { $0.lines.map(\.line) } }
    /// Whether the server closed the connection.
    package var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Waits until `condition` holds for what arrived, or `timeout` seconds pass (long, for a
    /// machine busy with other tests; it returns as soon as the condition holds).
    @discardableResult
    package func waitFor(timeout: Double = 30, _ condition: @Sendable (State) -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(timeout)
        // The condition runs under the lock (a copy of the state would make the collector copy
        // everything received at its next append), so it must not ask the client itself.
        while Date() < end {
            if state.withLockedValue({ condition($0) }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return state.withLockedValue { condition($0) }
    }

    /// Waits until `condition` holds for the lines received (or `timeout`); returns them.
    @discardableResult
    package func waitForLines(timeout: Double = 30, _ condition: @Sendable ([String]) -> Bool) async -> [String] {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let current = lines
            if condition(current) { return current }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return lines
    }

    /// The parsed JSON objects among the lines whose `type` is `type`.
    package func objects(ofType type: String) -> [[String: Any]] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == type
            else { return nil }
            return object
        }
    }

    /// Closes the connection.
    package func close() async {
        try? await channel.close()
    }
}

/// Records what arrives on a test client's connection.
private final class Collector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let state: NIOLockedValueBox<SocketTestClient.State>
    let keep: SocketTestClient.Keep
    var pending = ByteBuffer()

    init(state: NIOLockedValueBox<SocketTestClient.State>, keep: SocketTestClient.Keep) {
        self.state = state
        self.keep = keep
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if case .bytes = keep {
            state.withLockedValue { $0.bytes.append(contentsOf: incoming.readableBytesView) }
            return
        }
        pending.writeBuffer(&incoming)
        let arrival = Date().timeIntervalSince1970
        // memchr: a frame line is tens of kilobytes, and a load test has a hundred readers.
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
        // Frames begin {"type":"frame","seq":N,"time":T, in that order: read just that.
        guard case .frameHeaders = keep, line.hasPrefix("{\"type\":\"frame\",\"seq\":") else {
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
