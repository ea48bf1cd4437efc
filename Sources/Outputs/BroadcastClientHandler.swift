import NIOCore

/// The handler of one client connection: registers it, and reads and discards whatever the
/// client sends (the outputs take no commands), so its input can never pile up.
final class BroadcastClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: BroadcastRegistry

    init(registry: BroadcastRegistry) {
        self.registry = registry
    }

    /// Whether the registry took this client in (one over the limit is closed at once).
    private var registered = false

    func channelActive(context: ChannelHandlerContext) {
        guard registry.add(context.channel) else {
            context.close(promise: nil)
            return
        }
        registered = true
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if registered { registry.remove(context.channel) }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Input is ignored.
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A socket error ends only this client.
        context.close(promise: nil)
    }
}
