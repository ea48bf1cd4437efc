import FeedProtocol
import NIOCore

/// A feed client's Unix-socket connection, the `FeedTransport` of the socket's clients: cuts
/// the client's commands into lines for its `FeedClient`, writes what the client's outbox
/// releases (one frame in flight at a time, so a slow reader can never hold up the server or
/// the other clients) and closes when the client is let go. Lives on the server's event loop.
final class UnixSocketTransport: ChannelInboundHandler, FeedTransport {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: FeedHub
    /// The client this connection carries.
    let client: FeedClient
    private var context: ChannelHandlerContext?
    /// The client's command lines, cut from the stream.
    private var commands = LineSplitter(limit: FeedMessage.maxCommandBytes)

    /// A connection of a client of `hub`.
    init(hub: FeedHub) {
        self.hub = hub
        client = FeedClient(hub: hub)
        client.transport = self
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        guard client.join() else {
            // One line in the feed's own format, so a client can tell the user why, then close.
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(
                wrapOutboundOut(context.channel.allocator.buffer(string: hub.refusal)), promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.left()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A client's socket error ends only that client.
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A client being let go is not read further: one flooding commands would otherwise
        // be refused, counted and logged again for each line left in its last read.
        guard client.isServed else { return }
        let buffer = unwrapInboundIn(data)
        for piece in commands.pieces(from: buffer.readableBytesView) {
            switch piece {
            case .line(let line): client.receive(command: line)
            case .overlong: client.reject(FeedClient.overlongCommand)
            }
            if !client.isServed { return }
        }
    }

    func linesWaiting() { pump() }

    func close() { context?.close(promise: nil) }

    /// Writes whatever the outbox releases, then flushes once.
    private func pump() {
        guard let context, context.channel.isActive else { return }
        var wrote = false
        while let next = client.nextWrite(writable: context.channel.isWritable) {
            wrote = true
            switch next {
            case .control(let line):
                context.write(wrapOutboundOut(line), promise: nil)
            case .frame(let line):
                let written = context.eventLoop.makePromise(of: Void.self)
                context.write(wrapOutboundOut(line), promise: written)
                written.futureResult.assumeIsolated().whenComplete { [self] result in
                    guard case .success = result else { return client.frameFailed() }
                    client.frameWritten()
                    // A newer frame may have arrived while this one was in flight; send it
                    // after the current flush has returned.
                    if client.hasPendingWrite {
                        context.eventLoop.assumeIsolated().execute { [self] in pump() }
                    }
                }
            }
        }
        if wrote { context.flush() }
    }
}
