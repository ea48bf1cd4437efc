import NIOCore
import NIOWebSocket

/// Counts the WebSocket frames the frame decoder refuses: one larger than the message limit,
/// or a control frame that is fragmented or too long. The decoder's own error handler answers
/// them (close 1009 or 1002) and closes the connection; this handler, placed right behind it,
/// only counts what it passes on.
///
/// It also refuses what the decoder lets through: a frame from the client without a mask,
/// which RFC 6455 forbids (a client must mask every frame, so a page cannot make a proxy see
/// its own bytes), gets close 1002, counted as a malformed frame, and nothing after it is read.
final class FrameErrorCounter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let counters: WebCounters

    /// Set once an unmasked frame was refused.
    private var refused = false

    init(counters: WebCounters) {
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard unwrapInboundIn(data).maskKey == nil else {
            context.fireChannelRead(data)
            return
        }
        refused = true
        counters.count { $0.malformedFrames += 1 }
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .protocolError)
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let frameError = error as? NIOWebSocketError {
            switch frameError {
            case .invalidFrameLength: counters.count { $0.oversizeMessages += 1 }
            default: counters.count { $0.malformedFrames += 1 }
            }
        }
        context.fireErrorCaught(error)
    }

    /// Puts a counter behind the protocol error handler of an upgraded `channel`.
    static func install(on channel: any Channel, counters: WebCounters) async {
        let future = channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let errors = try pipeline.handler(type: WebSocketProtocolErrorHandler.self)
            try pipeline.addHandler(FrameErrorCounter(counters: counters), position: .after(errors))
        }
        try? await future.get()
    }
}
