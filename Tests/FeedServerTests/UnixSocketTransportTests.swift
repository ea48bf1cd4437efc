import NIOCore
import NIOEmbedded
import Testing

@testable import FeedServer

/// One feed client's connection, on an embedded event loop.
@Suite struct UnixSocketTransportTests {
    @Test func aClientFloodingCommandsIsLetGoOnceAndTheRestOfItsReadIsIgnored() throws {
        let hub = FeedHub(configuration: FeedConfiguration(socketPath: "/unused"))
        let channel = EmbeddedChannel(handler: UnixSocketTransport(hub: hub))
        // It reads nothing: its answers (and the hello) pile up until the outbox is full.
        channel.isWritable = false
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/unused")).wait()
        #expect(hub.statistics.clients == 1)

        let lines = 100
        try channel.writeInbound(ByteBuffer(string: String(repeating: "x\n", count: lines)))
        // The hello and 31 errors fill the outbox; the 32nd error is one too many.
        #expect(hub.statistics.commandsRejected == UInt64(FeedOutbox<ByteBuffer>.maxControlLines))
        #expect(!channel.isActive)
        #expect(hub.statistics.clients == 0)
        // Nothing more is read, nor delivered, once it is being let go.
        try? channel.writeInbound(ByteBuffer(string: "x\n"))
        #expect(hub.statistics.commandsRejected == UInt64(FeedOutbox<ByteBuffer>.maxControlLines))
    }
}
