import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A local stand-in for the OpenSky API and its token endpoint, on 127.0.0.1 and a free port.
///
/// Each endpoint answers from a script, one reply per request, then repeats its last reply.
/// Every request is recorded with its arrival time, so tests can check what was sent and when.
final class FakeOpenSkyServer: Sendable {
    /// One scripted answer.
    enum Reply: Sendable {
        /// HTTP 200 with a JSON body.
        case json(String)
        /// Any status, headers and body.
        case status(Int, headers: [(String, String)] = [], body: String = "")
        /// Reads the request and never answers.
        case hang
    }

    /// A request as received.
    struct Request: Sendable {
        var method: String
        var uri: String
        var headers: [(String, String)]
        var body: String
        var time: ContinuousClock.Instant

        /// The value of a header, by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        /// Everything that left the client: request line, headers and body.
        var wholeText: String {
            ([method + " " + uri] + headers.map { "\($0.0): \($0.1)" } + [body]).joined(separator: "\n")
        }
    }

    static let statesPath = "/api/states/all"
    static let tokenPath = "/auth/token"

    private let statesScript: NIOLockedValueBox<[Reply]>
    private let tokenScript: NIOLockedValueBox<[Reply]>
    private let recorded = NIOLockedValueBox<[Request]>([])
    private let channel: Channel

    /// A server answering the states endpoint from `states` and the token endpoint from `tokens`.
    init(states: [Reply], tokens: [Reply] = [.status(404)]) async throws {
        precondition(!states.isEmpty && !tokens.isEmpty)
        statesScript = NIOLockedValueBox(states)
        tokenScript = NIOLockedValueBox(tokens)
        let box = NIOLockedValueBox<FakeOpenSkyServer?>(nil)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(
                        Handler { head, body in
                            box.withLockedValue { $0 }?.answer(head, body: body) ?? .status(503)
                        })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        box.withLockedValue { $0 = self }
    }

    /// The base URL of the fake API.
    var baseURL: String { "http://127.0.0.1:\(channel.localAddress!.port!)" }
    /// The fake token endpoint.
    var tokenURL: String { baseURL + Self.tokenPath }

    /// Every request so far.
    var requests: [Request] { recorded.withLockedValue { $0 } }
    /// Requests to the states endpoint so far.
    var stateRequests: [Request] { requests.filter { $0.uri.hasPrefix(Self.statesPath) } }
    /// Requests to the token endpoint so far.
    var tokenRequests: [Request] { requests.filter { $0.uri.hasPrefix(Self.tokenPath) } }

    /// Stops listening.
    func stop() async throws {
        try await channel.close()
    }

    private func answer(_ head: HTTPRequestHead, body: String) -> Reply {
        recorded.withLockedValue {
            $0.append(
                Request(
                    method: "\(head.method)", uri: head.uri,
                    headers: head.headers.map { ($0.name, $0.value) }, body: body, time: .now))
        }
        let script =
            head.uri.hasPrefix(Self.tokenPath)
            ? tokenScript
            : head.uri.hasPrefix(Self.statesPath) ? statesScript : nil
        guard let script else { return .status(404) }
        return script.withLockedValue { replies in replies.count > 1 ? replies.removeFirst() : replies[0] }
    }

    /// Collects one request at a time and writes the scripted reply.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let reply: @Sendable (HTTPRequestHead, String) -> Reply
        private var head: HTTPRequestHead?
        private var body = ""

        init(reply: @escaping @Sendable (HTTPRequestHead, String) -> Reply) { self.reply = reply }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let received):
                head = received
                body = ""
            case .body(var buffer):
                body += buffer.readString(length: buffer.readableBytes) ?? ""
            case .end:
                guard let head else { return }
                let (status, headers, text): (Int, [(String, String)], String)
                switch reply(head, body) {
                case .json(let json): (status, headers, text) = (200, [("Content-Type", "application/json")], json)
                case .status(let code, let extra, let body): (status, headers, text) = (code, extra, body)
                case .hang: return
                }
                var responseHeaders = HTTPHeaders(headers)
                responseHeaders.replaceOrAdd(name: "Content-Length", value: "\(text.utf8.count)")
                let responseHead = HTTPResponseHead(
                    version: .http1_1, status: .init(statusCode: status),
                    headers: responseHeaders)
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))),
                    promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
