import FeedProtocol
import Logging
import NIOCore

/// One connected feed client: greets it, reads its commands line by line, and writes its
/// frames through a bounded `FeedOutbox` so that it can never hold up the server or the other
/// clients. Lives on the server's event loop.
final class FeedClientHandler: ChannelInboundHandler, FeedSubscriber {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: FeedHub
    private var state: FeedClientState
    private var context: ChannelHandlerContext?
    /// The client's command lines, cut from the stream.
    private var commands = LineSplitter(limit: FeedMessage.maxCommandBytes)
    /// Whether the hub took this client in (a client over the limit is only told so).
    private var registered = false
    /// Whether this client is being let go: the rest of what it sent is not read (a client
    /// flooding commands would otherwise be refused, counted and logged again for each
    /// line left in its last read).
    private var closing = false

    init(hub: FeedHub) {
        self.hub = hub
        state = FeedClientState(configuration: hub.configuration)
    }

    /// The client's current view; frames are rendered for it.
    var view: RadarView { state.view }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        guard hub.register(self) else {
            // One line in the feed's own format, so a client can tell the user why, then close.
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(
                wrapOutboundOut(context.channel.allocator.buffer(string: hub.refusal)), promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        registered = true
        hub.configuration.logger.debug("feed client connected", metadata: ["clients": "\(hub.statistics.clients)"])
        act(state.greet(hub: hub))
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if registered {
            hub.unregister(self)
            hub.configuration.logger.debug("feed client left", metadata: ["clients": "\(hub.statistics.clients)"])
        }
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
        guard registered, !closing else { return }
        let buffer = unwrapInboundIn(data)
        for piece in commands.pieces(from: buffer.readableBytesView) {
            switch piece {
            case .line(let line): act(state.command(line, hub: hub))
            case .overlong:
                act(state.reject(FeedClientState.overlongCommand, hub: hub))
            }
            if closing { return }
        }
    }

    /// A new frame for this client, at monotonic time `now` (seconds).
    func deliver(frame: ByteBuffer, now: Double) {
        guard !closing else { return }
        act(state.frame(frame, now: now, hub: hub))
    }

    func close() {
        closing = true
        context?.close(promise: nil)
    }

    /// Writes what the state queued, or ends the client.
    private func act(_ verdict: FeedClientState.Verdict) {
        switch verdict {
        case .keep: pump()
        case .disconnect: close()
        }
    }

    /// Writes whatever the outbox releases, then flushes once.
    private func pump() {
        guard let context, context.channel.isActive else { return }
        var wrote = false
        while let next = state.outbox.nextWrite(writable: context.channel.isWritable) {
            wrote = true
            switch next {
            case .control(let line):
                context.write(wrapOutboundOut(line), promise: nil)
            case .frame(let line):
                let written = context.eventLoop.makePromise(of: Void.self)
                context.write(wrapOutboundOut(line), promise: written)
                written.futureResult.assumeIsolated().whenComplete { [self] result in
                    guard case .success = result else {
                        state.outbox.frameWritten()
                        return
                    }
                    state.frameWritten(hub: hub)
                    // A newer frame may have arrived while this one was in flight; send it
                    // after the current flush has returned.
                    if state.outbox.hasPending {
                        context.eventLoop.assumeIsolated().execute { [self] in pump() }
                    }
                }
            }
        }
        if wrote { context.flush() }
    }
}
