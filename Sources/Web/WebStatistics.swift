import Synchronization

/// Counters of the web server, for the statistics line and tests.
package struct WebStatistics: Sendable, Equatable {
    /// HTTP requests answered (WebSocket upgrades included).
    package var requests: UInt64 = 0
    /// Requests for paths the server does not have.
    package var notFound: UInt64 = 0
    /// Requests with a method other than GET or HEAD.
    package var badMethods: UInt64 = 0
    /// Plain requests for `/feed`, which only speaks WebSocket.
    package var feedWithoutUpgrade: UInt64 = 0
    /// WebSocket upgrades refused because the page asking is from another site.
    package var foreignOrigins: UInt64 = 0
    /// WebSocket feed sessions opened.
    package var webSockets: UInt64 = 0
    /// WebSocket feed sessions open now.
    package var webSocketsOpen = 0
    /// WebSocket clients sent away because the feed was full.
    package var webSocketsRefused: UInt64 = 0
    /// WebSocket clients closed for a message over the size limit.
    package var oversizeMessages: UInt64 = 0
    /// WebSocket clients closed for frames that break the protocol.
    package var malformedFrames: UInt64 = 0
    /// Binary WebSocket messages (commands are text), answered with an error.
    package var binaryMessages: UInt64 = 0
    /// Connections closed because the request head (or TLS handshake) did not arrive in time.
    package var slowRequests: UInt64 = 0
    /// Times a connection had to wait because `maxConnections` were open.
    package var connectionsDeferred: UInt64 = 0
    /// Request heads that did not parse or broke a limit (answered 400 or 431, closed).
    package var malformedRequests: UInt64 = 0
    /// Requests for a `Host` the server does not answer to (answered 421, closed).
    package var unknownHosts: UInt64 = 0
    /// WebSocket handshakes that broke the rules: not GET, a bad key, another version
    /// (answered 400, closed).
    package var badHandshakes: UInt64 = 0
    /// WebSocket text messages that were not UTF-8 (closed with 1007).
    package var invalidText: UInt64 = 0

    /// All zero.
    package init() {}

    /// The counters for the statistics line: WebSockets opened, then each kind of refusal
    /// that happened, as `name count` pairs.
    package var summary: String {
        let refusals: [(String, UInt64)] = [
            ("refused", webSocketsRefused), ("foreign_origins", foreignOrigins),
            ("oversize_messages", oversizeMessages),
            ("malformed_frames", malformedFrames), ("invalid_text", invalidText), ("binary_messages", binaryMessages),
            ("slow_requests", slowRequests), ("malformed_requests", malformedRequests), ("unknown_hosts", unknownHosts),
            ("bad_handshakes", badHandshakes),
            ("feed_without_upgrade", feedWithoutUpgrade), ("bad_methods", badMethods), ("not_found", notFound),
            ("connections_deferred", connectionsDeferred)
        ]
        return
            (["web: \(requests) requests, \(webSockets) websockets"]
            + refusals.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }).joined(separator: ", ")
    }
}

/// The counters, shared by every connection's event loop.
final class WebCounters: Sendable {
    private let values = Mutex(WebStatistics())

    /// Changes the counters.
    func count(_ change: (inout WebStatistics) -> Void) {
        values.withLock { change(&$0) }
    }

    /// The counters now.
    var snapshot: WebStatistics { values.withLock { $0 } }
}
