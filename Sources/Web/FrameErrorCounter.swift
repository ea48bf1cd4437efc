import NIOCore
import NIOWebSocket

/// Counts the WebSocket frames the frame decoder refuses: one larger than the message limit,
/// or a control frame that is fragmented or too long. The decoder's own error handler answers
/// them (close 1009 or 1002) and closes the connection; this handler, placed right behind it,
/// only counts what it passes on.
final class FrameErrorCounter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private let counters: WebCounters

    init(counters: WebCounters) {
        self.counters = counters
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
