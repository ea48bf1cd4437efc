import HTTPTypes
import NIOCore
import NIOHTTP1

/// A request the server answers itself, before the application sees it, and then closes the
/// connection: a head that does not parse, a host it does not serve, a WebSocket handshake
/// that breaks the rules. Sent as an outbound event from `RequestHeadGuard` (behind the HTTP
/// decoder) to `RefusalWriter` (in front of the HTTP encoder), which writes it as bytes.
struct RequestRefusal: Sendable {
    /// The status code: 400, 421 or 431.
    let status: Int
    /// The status line's reason phrase.
    let reason: String
    /// One sentence for the body.
    let message: String
    /// Headers besides the usual ones (`Sec-WebSocket-Version` for a wrong version).
    var extraHeaders: [(String, String)] = []

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

    /// A WebSocket handshake refused for `why`.
    static func badHandshake(_ why: String, version: Bool = false) -> RequestRefusal {
        RequestRefusal(
            status: 400, reason: "Bad Request", message: "WebSocket handshake refused: \(why)",
            extraHeaders: version ? [("Sec-WebSocket-Version", "13")] : [])
    }

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
        for (name, value) in extraHeaders { text += "\(name): \(value)\r\n" }
        return ByteBuffer(string: text + "\r\n" + body)
    }
}

/// Watches every request head right behind the HTTP decoder, before Hummingbird or the
/// WebSocket upgrade see it. It refuses (and counts) a head the decoder gave up on, one for
/// a host the server does not serve, and a WebSocket handshake that breaks the rules, and it
/// marks a request that does not keep the connection alive (HTTP/1.0 without `keep-alive`)
/// with `Connection: close` so the connection ends with its answer. Without it, a head that
/// fails to parse would get no answer and hold its connection for ever.
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
        if let refusal = Self.handshakeProblem(head) {
            counters.count { $0.badHandshakes += 1 }
            return refusal
        }
        return nil
    }

    /// What is wrong with a WebSocket handshake (RFC 6455 section 4.2.1); nil when `head`
    /// asks for no WebSocket or asks properly.
    static func handshakeProblem(_ head: HTTPRequestHead) -> RequestRefusal? {
        guard head.headers["Upgrade"].contains(where: { $0.lowercased().contains("websocket") }) else { return nil }
        guard head.method == .GET, head.version == .http1_1 else {
            return .badHandshake("a WebSocket opens with GET over HTTP/1.1")
        }
        let keys = head.headers["Sec-WebSocket-Key"]
        guard keys.count == 1, let key = keys.first, Self.isHandshakeKey(key) else {
            return .badHandshake("Sec-WebSocket-Key must be 16 bytes in base64")
        }
        guard head.headers["Sec-WebSocket-Version"] == ["13"] else {
            return .badHandshake("only Sec-WebSocket-Version 13 is spoken", version: true)
        }
        return nil
    }

    /// Whether `key` is base64 of 16 bytes: 22 characters of the alphabet and "==".
    static func isHandshakeKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[..<22].allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "/")
        }
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
