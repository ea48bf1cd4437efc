import HTTPTypes
import NIOCore
import NIOHTTP1

/// A request the server answers itself, before the application sees it, and then closes the
/// connection: a head that does not parse, a host it does not serve. Sent as an outbound event from `RequestHeadGuard` (behind the HTTP
/// decoder) to `RefusalWriter` (in front of the HTTP encoder), which writes it as bytes.
struct RequestRefusal: Sendable {
    /// The status code: 400, 421 or 431.
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
    /// A `Host` this server does not answer to.
    static let unknownHost = RequestRefusal(
        status: 421, reason: "Misdirected Request",
        message: "this server does not answer to that host name (see --http-host)")

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
/// WebSocket upgrade see it. It refuses (and counts) a head the decoder gave up on and one
/// for a host the server does not serve, and it marks a request that does not keep the
/// connection alive (HTTP/1.0 without `keep-alive`) with `Connection: close` so the
/// connection ends with its answer. Without it, a head that fails to parse would get no
/// answer and hold its connection for ever.
///
/// Once the connection switches to WebSocket (the `101` goes out through it) it only lets
/// bytes by: what follows are frames, not HTTP.
final class RequestHeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let hosts: AllowedHosts
    private let counters: WebCounters
    /// Set once a refusal is on its way: nothing more of this connection is read.
    private var refused = false
    /// Set once the `101` went out: what passes from then on are WebSocket bytes, let by
    /// untouched (the upgrade puts the frame handlers behind this one).
    private var upgraded = false

    init(hosts: AllowedHosts, counters: WebCounters) {
        self.hosts = hosts
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard !upgraded else {
            context.fireChannelRead(data)
            return
        }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let refusal = check(head) {
            refuse(refusal, context: context)
            return
        }
        if !head.isKeepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
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

    /// Why `head` is refused, counted; nil when it may go on.
    private func check(_ head: HTTPRequestHead) -> RequestRefusal? {
        let hostFields = head.headers["Host"]
        if hostFields.count > 1 || (hostFields.isEmpty && head.version != .http1_0) {
            counters.count { $0.malformedRequests += 1 }
            return .malformed
        }
        if let host = hostFields.first, !hosts.allows(host) {
            counters.count { $0.unknownHosts += 1 }
            return .unknownHost
        }
        return nil
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
