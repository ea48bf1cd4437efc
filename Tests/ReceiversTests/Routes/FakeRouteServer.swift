import Identity
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A local stand-in for a route service on 127.0.0.1 and a free port. The reply for each
/// request is chosen by the path's last component (the callsign), and may come late or never;
/// every request is recorded with the time it arrived.
final class FakeRouteServer: Sendable {
    /// How the server answers one request.
    indirect enum Reply: Sendable {
        /// A status, headers and a body.
        case answer(Int, headers: [(String, String)] = [("Content-Type", "application/json")], body: String)
        /// The reply after a pause.
        case late(Duration, Reply)
        /// HTTP 200 with the head at once and the body one byte per pause.
        case trickle(String, every: Duration)
        /// No answer at all (until the server stops).
        case silence
    }

    /// A request as received.
    struct Request: Sendable {
        var path: String
        var headers: [(String, String)]
        var time: ContinuousClock.Instant
    }

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    private let listener: Channel
    private let serving: Task<Void, Never>
    private let recorded: NIOLockedValueBox<[Request]>

    /// A server answering each request with `reply(callsign)`.
    init(reply: @escaping @Sendable (String) -> Reply) async throws {
        let recorded = NIOLockedValueBox<[Request]>([])
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
        listener = server.channel
        self.recorded = recorded
        serving = Task {
            try? await server.executeThenClose { connections in
                await withDiscardingTaskGroup { group in
                    do {
                        for try await connection in connections {
                            group.addTask { try? await Self.serve(connection, reply: reply, recorded: recorded) }
                        }
                    } catch {}
                    group.cancelAll()
                }
            }
        }
    }

    /// The base URL of the fake service.
    var baseURL: String { "http://127.0.0.1:\(listener.localAddress!.port!)" }

    /// Every request so far.
    var requests: [Request] { recorded.withLockedValue { $0 } }

    /// The requests so far for `callsign`.
    func requests(for callsign: String) -> [Request] {
        requests.filter { $0.path == "/callsign/" + callsign }
    }

    /// Stops listening and drops every connection.
    func stop() async {
        listener.close(promise: nil)
        serving.cancel()
        await serving.value
    }

    private static func responseHead(_ status: Int, _ headers: [(String, String)], length: Int)
        -> HTTPServerResponsePart
    {
        var fields = HTTPHeaders(headers)
        fields.replaceOrAdd(name: "Content-Length", value: "\(length)")
        return .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: fields))
    }

    private static func serve(
        _ connection: Connection, reply: @Sendable (String) -> Reply,
        recorded: NIOLockedValueBox<[Request]>
    ) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let received): head = received
                case .body: break
                case .end:
                    guard let head else { continue }
                    recorded.withLockedValue {
                        $0.append(
                            Request(path: head.uri, headers: head.headers.map { ($0.name, $0.value) }, time: .now))
                    }
                    let callsign = head.uri.split(separator: "/").last.map(String.init) ?? ""
                    var answer = reply(callsign)
                    while case .late(let pause, let next) = answer {
                        try await Task.sleep(for: pause)
                        answer = next
                    }
                    switch answer {
                    case .answer(let status, let headers, let body):
                        try await outbound.write(Self.responseHead(status, headers, length: body.utf8.count))
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(string: body))))
                    case .trickle(let body, let pause):
                        try await outbound.write(Self.responseHead(200, [], length: body.utf8.count))
                        for byte in body.utf8 {
                            try await Task.sleep(for: pause)
                            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: [byte]))))
                        }
                    case .late, .silence:
                        try await Task.sleep(for: .seconds(3_600))
                        return
                    }
                    try await outbound.write(.end(nil))
                }
            }
        }
    }
}
