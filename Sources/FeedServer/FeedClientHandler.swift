import NIOCore
import FeedProtocol

/// One connected feed client: greets it, reads its commands line by line, and writes its
/// frames through a bounded `FeedOutbox` so that it can never hold up the server or the other
/// clients. Lives on the server's event loop.
final class FeedClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: FeedHub
    /// The client's current view; frames are rendered for it.
    private(set) var view: RadarView
    private var outbox: FeedOutbox<ByteBuffer>
    private var context: ChannelHandlerContext?
    /// The client's command lines, cut from the stream.
    private var commands = LineSplitter(limit: FeedMessage.maxCommandBytes)
    /// Whether the hub took this client in (a client over the limit is only told so).
    private var registered = false

    init(hub: FeedHub) {
        self.hub = hub
        view = hub.configuration.radar.defaultView
        outbox = FeedOutbox(stallTimeout: hub.configuration.stallTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        guard hub.register(self) else {
            // One line in the feed's own format, so a client can tell the user why, then close.
            let line = FeedMessage.error("the feed is serving its maximum of \(hub.configuration.maxClients) clients; try again later")
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: line)), promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        registered = true
        hub.configuration.logger.debug("feed client connected", metadata: ["clients": "\(hub.statistics.clients)"])
        let hello = FeedHello(receiver: hub.observer, source: hub.source,
                              frameIntervalSeconds: hub.configuration.radar.frameInterval, view: view)
        sendControl(hello.jsonLine)
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
        guard registered else { return }
        let buffer = unwrapInboundIn(data)
        for piece in commands.pieces(from: buffer.readableBytesView) {
            switch piece {
            case .line(let line): handle(commandLine: line)
            case .overlong:
                reject("command longer than \(FeedMessage.maxCommandBytes) bytes; a command is one JSON object on one line")
            }
        }
    }

    /// Applies one command line, answering with the new view or an error.
    private func handle(commandLine: [UInt8]) {
        if commandLine.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
        switch FeedMessage.apply(commandLine: commandLine, to: view) {
        case .success(let newView):
            view = newView
            sendControl(FeedMessage.viewAcknowledgement(newView))
        case .failure(let error):
            reject(error.message)
        }
    }

    private func reject(_ message: String) {
        hub.statistics.commandsRejected += 1
        sendControl(FeedMessage.error(message))
    }

    private func sendControl(_ line: String) {
        guard let context else { return }
        if outbox.offerControl(context.channel.allocator.buffer(string: line)) {
            pump()
        } else {
            // Commands keep coming while the answers are not read: stop serving this client.
            hub.configuration.logger.notice("feed client sends commands without reading the answers: disconnected")
            close()
        }
    }

    /// A new frame for this client, at monotonic time `now` (seconds).
    func deliver(frame: ByteBuffer, now: Double) {
        switch outbox.offerFrame(frame, now: now) {
        case .queued(let replaced):
            if replaced { hub.statistics.framesDropped += 1 }
            pump()
        case .stalled:
            hub.statistics.clientsStalled += 1
            hub.configuration.logger.notice(
                "feed client stopped reading for \(hub.configuration.stallTimeout) s: disconnected")
            close()
        }
    }

    func close() {
        context?.close(promise: nil)
    }

    /// Writes whatever the outbox releases, then flushes once.
    private func pump() {
        guard let context, context.channel.isActive else { return }
        var wrote = false
        while let next = outbox.nextWrite(writable: context.channel.isWritable) {
            wrote = true
            switch next {
            case .control(let line):
                context.write(wrapOutboundOut(line), promise: nil)
            case .frame(let line):
                let written = context.eventLoop.makePromise(of: Void.self)
                context.write(wrapOutboundOut(line), promise: written)
                written.futureResult.assumeIsolated().whenComplete { [self] result in
                    outbox.frameWritten()
                    guard case .success = result else { return }
                    hub.statistics.framesWritten += 1
                    // A newer frame may have arrived while this one was in flight; send it
                    // after the current flush has returned.
                    if outbox.hasPending {
                        context.eventLoop.assumeIsolated().execute { [self] in pump() }
                    }
                }
            }
        }
        if wrote { context.flush() }
    }
}
