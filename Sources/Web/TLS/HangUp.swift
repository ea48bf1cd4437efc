import HummingbirdCore
import Logging
import NIOCore

/// Closes an HTTPS connection as soon as the client ends its side of the TCP connection (a
/// FIN), before the TLS layer hears of it.
///
/// Hummingbird allows half-closed connections, so NIOSSL sees such a FIN as an unclean end
/// of the client's input and starts a clean shutdown of its own: it sends close_notify and
/// waits five seconds for the client's. Connections that take that path are never freed: the
/// TLS handler, its read buffer and BoringSSL's connection state (about 20 KB a connection in a
/// heap profile) stay allocated for good. Port scanners and health checkers close exactly
/// like that right after the handshake, and a few thousand of them a minute would push a small
/// computer out of memory. A client whose input has ended has nothing more to say, and without
/// close_notify its last bytes could not be trusted anyway, so closing the socket outright is
/// what the connection would have come to, minus the leak.
struct HangUpChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    /// The TLS channel to protect.
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(HangUpHandler(), position: .first)
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// The first handler of an HTTPS connection: on the client's FIN it closes the socket itself.
/// Its close starts at the front of the pipeline, so it never passes through the TLS handler.
final class HangUpHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
