import FoundationEssentials
import Hummingbird
import ModeS
import NIOCore
import Support

/// Answers every plain HTTP request: the web app's files, `/data/*.json`, `/metrics`, and a
/// clear refusal for everything else. WebSocket upgrades to `/feed` never reach it
/// (`FeedSocket` takes them). Every answer carries the security headers.
struct WebResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let documents: any DataDocuments
    let counters: WebCounters
    let corsOrigin: String?
    /// `/metrics`, unless turned off.
    let metrics: MetricsEndpoint?
    /// The history's endpoints, when the history is kept.
    var history: HistoryEndpoint?

    func respond(to request: Request, context: Context) async throws -> Response {
        counters.count { $0.requests += 1 }
        var response = await answer(request)
        SecurityHeaders.apply(to: &response.headers)
        if request.headers[.connection] == "close" { response.headers[.connection] = "close" }
        if request.method == .head {
            // The length GET would send, without the body.
            let length = response.body.contentLength
            response.body = ResponseBody()
            response.headers[.contentLength] = length.map(String.init)
        }
        return response
    }

    private func answer(_ request: Request) async -> Response {
        guard request.method == .get || request.method == .head else {
            counters.count { $0.badMethods += 1 }
            var response = Self.text(.methodNotAllowed, "only GET and HEAD are served here\n")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        let path = request.uri.path
        if HistoryEndpoint.handles(path) { return await historyAnswer(path: path, query: request.uri.query) }
        switch path {
        case FeedSocket.path:
            // A browser that opened the feed as a page, or a client without the upgrade.
            counters.count { $0.feedWithoutUpgrade += 1 }
            var response = Self.text(
                .upgradeRequired,
                "/feed is the radar feed over WebSocket: connect with ws:// or wss://\n")
            response.headers[.upgrade] = "websocket"
            return response
        case "/data/aircraft.json":
            return data(await documents.aircraftJSON())
        case "/data/receiver.json":
            return data(await documents.receiverJSON())
        case MetricsEndpoint.path:
            guard let metrics else { return notFound() }
            let text = await metrics.exposition()
            return Response(
                status: .ok, headers: [.contentType: PrometheusExposition.contentType, .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        default:
            guard let asset = WebApp.assets[path == "/" ? "/index.html" : path] else { return notFound() }
            return serve(asset, request: request)
        }
    }

    /// The answer of the history's endpoints; 404 when the history is off.
    private func historyAnswer(path: String, query: String?) async -> Response {
        guard let history else { return notFound() }
        switch await history.answerAway(path: path, query: query) {
        case .json(let json): return data(json)
        case .badRequest(let reason): return Self.text(.badRequest, reason + "\n")
        case .unavailable(let reason): return Self.text(.serviceUnavailable, reason + "\n")
        }
    }

    /// The answer for a path the server does not have, counted.
    private func notFound() -> Response {
        counters.count { $0.notFound += 1 }
        return Self.text(.notFound, "not found\n")
    }

    /// A file of the app: revalidated by ETag on every use (the app changes only with the
    /// binary, and a stale app that talks to a newer daemon is worse than one round trip),
    /// gzipped when the client takes it and it pays.
    /// The gzip copy and the plain file are two representations, each with its own ETag.
    private func serve(_ asset: EmbeddedAsset, request: Request) -> Response {
        let packed = asset.gzipped.flatMap { Self.acceptsGzip(request.headers[.acceptEncoding]) ? $0 : nil }
        let etag = packed == nil ? asset.etag : asset.gzipETag
        var headers: HTTPFields = [.contentType: asset.contentType, .eTag: etag, .cacheControl: "no-cache"]
        if asset.gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag: etag) {
            if packed != nil { headers[.contentEncoding] = "gzip" }
            return Response(status: .notModified, headers: headers)
        }
        guard let packed else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.body))
        }
        headers[.contentEncoding] = "gzip"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: packed))
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`), compared weakly as that
    /// header is: a `W/` in front of a tag does not matter.
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { item in
            var tag = item.trimmingWhitespace()
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag || tag == "*"
        }
    }

    /// A JSON document under `/data`: never cached, readable by other sites only when the
    /// user named one.
    private func data(_ json: String) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-cache"]
        if let corsOrigin {
            headers[.accessControlAllowOrigin] = corsOrigin
            headers[.crossOriginResourcePolicy] = "cross-origin"
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }

    /// Whether an `Accept-Encoding` value allows gzip (and does not refuse it with q=0).
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        for item in value.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingWhitespace() }
            guard parts.first == "gzip" || parts.first == "*" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }

    /// A short plain-text answer.
    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }
}
