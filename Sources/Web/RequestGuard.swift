import HTTPTypes
import NIOCore
import NIOHTTP1

/// A request the server answers itself, before the application sees it, and then closes the
/// connection: a head that does not parse. Sent as an outbound event from `RequestHeadGuard` (behind the HTTP
/// decoder) to `RefusalWriter` (in front of the HTTP encoder), which writes it as bytes.
struct RequestRefusal: Sendable {
    /// The status code: 400 or 431.
    let status: Int
    /// The status line's reason phrase.
    let reason: String
    /// One sentence for the body.
    let message: String

    /// A head the decoder could not parse.
    static let malformed = RequestRefusal(
        status: 400, reason: "Bad Request", message: "the request head does not parse as HTTP/1.1")
    /// A head over the decoder's limits on size or on the number of headers.
    static let tooLarge = RequestRefusal(
        status: 431, reason: "Request Header Fields Too Large",
        message: "the request head has too many or too large headers")

    /// The whole answer as it goes on the wire, with the security headers and
    /// `Connection: close`.
    var bytes: ByteBuffer {
        let body = message + "\n"
        var fields: HTTPFields = [
            .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
            .contentLength: String(body.utf8.count), .connection: "close"
        ]
        SecurityHeaders.apply(to: &fields)
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
        return ByteBuffer(string: text + "\r\n" + body)
    }
}

/// Watches every request head right behind the HTTP decoder, before Hummingbird or the
/// WebSocket upgrade see it. It refuses (and counts) a head the decoder gave up on: without
/// it, a head that fails to parse would get no answer and hold its connection for ever.
///
/// Once the connection switches to WebSocket (the `101` goes out through it) it only lets
/// bytes by: what follows are frames, not HTTP.
final class RequestHeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let counters: WebCounters
    /// Set once a refusal is on its way: nothing more of this connection is read.
    private var refused = false
    /// Set once the `101` went out: what passes from then on are WebSocket bytes, let by
    /// untouched (the upgrade puts the frame handlers behind this one).
    private var upgraded = false

    init(counters: WebCounters) {
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard !upgraded else {
            context.fireChannelRead(data)
            return
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !refused else { return }
        counters.count { $0.malformedRequests += 1 }
        refuse(parse == .headerOverflow ? .tooLarge : .malformed, context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !upgraded, case .head(let response) = unwrapOutboundIn(data), response.status == .switchingProtocols {
            upgraded = true
        }
        context.write(data, promise: promise)
    }

    /// Sends `refusal` towards `RefusalWriter`; the head goes no further.
    private func refuse(_ refusal: RequestRefusal, context: ChannelHandlerContext) {
        refused = true
        context.triggerUserOutboundEvent(refusal, promise: nil)
    }
}

/// Writes a `RequestRefusal` as bytes and closes the connection. It sits in front of the HTTP
/// encoder (behind TLS), so the answer needs no HTTP state: the decoder that refused the head
/// may be broken, and the application has not seen the request.
final class RefusalWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let refusal = event as? RequestRefusal else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(refusal.bytes)).whenComplete { _ in channel.close(promise: nil) }
        promise?.succeed(())
    }
}
