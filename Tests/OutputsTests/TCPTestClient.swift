import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ModeS

/// A TCP client for output tests: collects every byte it receives; or, with `reading: false`,
/// connects with a tiny receive buffer and never reads a byte (a dead client).
final class TCPTestClient: Sendable {
    struct State: Sendable {
        var bytes: [UInt8] = []
        var closed = false
    }

    let channel: any Channel
    let state: NIOLockedValueBox<State>

    private init(channel: any Channel, state: NIOLockedValueBox<State>) {
        self.channel = channel
        self.state = state
    }

    static func connect(port: Int, reading: Bool = true) async throws -> TCPTestClient {
        let state = NIOLockedValueBox(State())
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: reading)
        if !reading { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: 4096) }
        let channel = try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteCollector(state: state))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return TCPTestClient(channel: channel, state: state)
    }

    var bytes: [UInt8] { state.withLockedValue { $0.bytes } }
    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Sends bytes to the server.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text))
    }

    /// Waits until `condition` holds for the bytes received, or `timeout` seconds pass.
    @discardableResult
    func waitFor(timeout: Double = 30, _ condition: @Sendable (State) -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if state.withLockedValue({ condition($0) }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return state.withLockedValue { condition($0) }
    }

    func close() async {
        try? await channel.close()
    }
}

private final class ByteCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let state: NIOLockedValueBox<TCPTestClient.State>

    init(state: NIOLockedValueBox<TCPTestClient.State>) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        state.withLockedValue { $0.bytes.append(contentsOf: buffer.readableBytesView) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLockedValue { $0.closed = true }
        context.fireChannelInactive()
    }
}
