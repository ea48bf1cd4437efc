import Glibc
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import Outputs

/// The clients of a TCP output as the registry keeps them, on an embedded event loop.
@Suite struct BroadcastRegistryTests {
    /// Closes the channel as soon as anything is written to it, as a socket write to a
    /// client that reset its connection does (before `writeAndFlush` returns).
    final class ResetOnWrite: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            promise?.fail(IOError(errnoCode: ECONNRESET, reason: "write"))
            context.close(promise: nil)
        }
    }

    func client(of registry: BroadcastRegistry, resetting: Bool) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        if resetting { try channel.pipeline.syncOperations.addHandler(ResetOnWrite()) }
        try channel.pipeline.syncOperations.addHandler(BroadcastClientHandler(registry: registry))
        channel.pipeline.fireChannelActive()
        return channel
    }

    @Test func aClientWhoseWriteFailsIsGoneForGoodAndFreesItsPlace() throws {
        let shared = SharedCounters()
        let registry = BroadcastRegistry(shared: shared, name: "test", maxClients: 1, logger: Logger(label: "test"))
        let resetting = try client(of: registry, resetting: true)
        #expect(shared.connected.load(ordering: .relaxed) == 1)

        registry.broadcast(
            ByteBuffer(string: "*8D4840D6202CC371C32CE0576098;\n"), now: .now(), stallTimeout: .seconds(5))
        #expect(!resetting.isActive)
        #expect(shared.connected.load(ordering: .relaxed) == 0, "the closed client is not put back")

        // Its place is free: the next client is taken in, and it gets the next line.
        let next = try client(of: registry, resetting: false)
        #expect(shared.connected.load(ordering: .relaxed) == 1)
        #expect(shared.statistics.withLock { $0.clientsRefused } == 0)
        registry.broadcast(ByteBuffer(string: "*5D4840D6;\n"), now: .now(), stallTimeout: .seconds(5))
        let written = try next.readOutbound(as: ByteBuffer.self)
        #expect(written.map { String(buffer: $0) } == "*5D4840D6;\n")
        _ = try? next.finish()
    }
}
