import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Closes connections that take too long to say what they want: from the first byte of a
/// request head (or from connecting, until the first one) the whole head must arrive within
/// the deadline. A client that trickles header bytes to hold connections open is closed and
/// counted; idle keep-alive connections are left to the idle timeout. Once the connection
/// has switched to WebSocket it steps aside.
///
/// It sits in front of the HTTP decoder (behind TLS, so a stalled handshake is caught too)
/// and only watches the bytes go by for the blank line that ends a head.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let counters: WebCounters
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find "\r\n\r\n" across reads.
    private var tail: UInt32 = 0
    private var upgraded = false

    init(timeout: TimeAmount, counters: WebCounters) {
        self.timeout = timeout
        self.counters = counters
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !upgraded {
            let buffer = unwrapInboundIn(data)
            for byte in buffer.readableBytesView {
                if timer == nil { arm(context: context) }
                tail = (tail << 8) | UInt32(byte)
                if tail == 0x0D0A_0D0A {
                    // A whole head: the deadline restarts with the next request's first byte.
                    timer?.cancel()
                    timer = nil
                    tail = 0
                }
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !upgraded {
            // "HTTP/1.1 101": the connection becomes a WebSocket, whose frames are not heads.
            let buffer = unwrapOutboundIn(data)
            if buffer.readableBytes >= 12, buffer.getString(at: buffer.readerIndex, length: 12) == "HTTP/1.1 101" {
                upgraded = true
                timer?.cancel()
                timer = nil
            }
        }
        context.write(data, promise: promise)
    }

    private func arm(context: ChannelHandlerContext) {
        guard !upgraded, timer == nil else { return }
        let counters = self.counters
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) {
            counters.count { $0.slowRequests += 1 }
            channel.close(promise: nil)
        }
    }
}

/// The HTTP channel with a `RequestDeadlineHandler` and a `RefusalWriter` in front of it, a
/// `RequestHeadGuard` right behind its HTTP decoder, and a bounded kernel send buffer. The
/// kernel would otherwise grow a connection's buffer to megabytes, so a phone that stopped
/// reading could swallow half a minute of radar frames before anything noticed; with
/// `sendBufferBytes` it falls behind within a few frames and the feed's stall rule lets it go.
struct DeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let timeout: TimeAmount
    let counters: WebCounters
    /// The hosts requests may name.
    let hosts: AllowedHosts

    /// A few large radar frames; the kernel doubles it for its own bookkeeping.
    static var sendBufferBytes: Int { 256 * 1024 }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: Self.sendBufferBytes)
            try channel.pipeline.syncOperations.addHandlers(
                RequestDeadlineHandler(timeout: timeout, counters: counters), RefusalWriter())
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            // On the channel's loop, before its first read: the decoder is there now.
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(RequestHeadGuard(hosts: hosts, counters: counters), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
