import NIOCore

/// Ends a client connection on which nothing has arrived for `limit`: a peer that lost power,
/// or a router that forgot the connection without a reset, otherwise leaves the read waiting
/// for ever (TCP only notices hours later), and the source never reconnects. The connection
/// fails with `Silence`, which `Reconnecting` logs before it tries again.
enum ReadTimeout {
    /// Nothing arrived for a while; one line for the log.
    struct Silence: Error, CustomStringConvertible {
        /// How long nothing arrived.
        let limit: TimeAmount

        var description: String {
            let seconds = Double(limit.nanoseconds) / 1e9
            return
                "nothing received for \(seconds.rounded() == seconds ? "\(Int(seconds))" : "\(seconds)") s; the peer is gone"
        }
    }

    /// Adds the timeout to a client channel's pipeline; call before the channel is wrapped
    /// in an `NIOAsyncChannel`, so the failure reaches its inbound stream.
    static func install(on channel: any Channel, limit: TimeAmount) throws {
        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: limit))
        try channel.pipeline.syncOperations.addHandler(Closer(limit: limit))
    }

    /// Turns the idle handler's read event into a failed, closed connection.
    final class Closer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let limit: TimeAmount

        init(limit: TimeAmount) { self.limit = limit }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            context.fireErrorCaught(Silence(limit: limit))
            context.close(promise: nil)
        }
    }
}
