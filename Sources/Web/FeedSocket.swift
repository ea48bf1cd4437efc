import FeedProtocol
import FeedServer
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// The radar feed over WebSocket at `/feed`: the same protocol as the Unix socket (hello,
/// frame, view, error), one JSON object per text message, served by the same hub through a
/// `FeedSession`, so the view rules, the slow-client policy and the client limit are the
/// socket's own.
struct FeedSocket: Sendable {
    let feed: FeedServer
    let counters: WebCounters
    let maxMessageBytes: Int

    /// The path the feed answers on.
    static let path = "/feed"

    /// Whether a request becomes a WebSocket: only for `/feed`. A page of another site is
    /// upgraded only to be told why it may not read the feed and closed (1008, policy).
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) -> ShouldUpgradeResult<
        WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
    > {
        guard Self.isFeed(request) else { return .dontUpgrade }
        guard Self.isSameOrigin(request) else {
            return .upgrade([:]) { _, outbound, _ in
                counters.count { $0.foreignOrigins += 1 }
                let refusal = FeedMessage.error("the feed does not serve pages of other sites").dropLast()
                try? await outbound.write(.text(String(refusal)))
                try? await outbound.close(.policyViolation, reason: "foreign origin")
            }
        }
        return .upgrade([:]) { inbound, outbound, _ in
            await FrameErrorCounter.install(on: channel, counters: counters)
            await serve(inbound: inbound, outbound: outbound, channel: channel)
        }
    }

    /// Whether the request is for the feed's path (any query ignored).
    static func isFeed(_ request: HTTPRequest) -> Bool {
        request.path.map { $0.split(separator: "?", maxSplits: 1).first == Substring(path) } ?? false
    }

    /// Browsers name the page that opens a WebSocket in `Origin` (always `http(s)://…`, or
    /// `null` for sandboxed and local pages); a page of another site must not read the radar
    /// through the visitor's browser. Other clients send no origin or one of their own
    /// making, and are let in: only browsers enforce origins, and only they need this guard.
    static func isSameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headerFields[.origin]?.lowercased() else { return true }
        if origin == "null" { return false }
        for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
            guard let authority = request.authority?.lowercased() else { return false }
            return origin.dropFirst(scheme.count) == Substring(authority)
        }
        return true
    }

    /// Runs one session until either side ends it.
    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async {
        guard let session = try? await feed.openSession() else { return }
        if let refusal = session.refusal {
            counters.count { $0.webSocketsRefused += 1 }
            try? await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: refusal)))
            // 1013, "try again later".
            try? await outbound.close(.unknown(1013), reason: "feed full")
            return
        }
        counters.count {
            $0.webSockets += 1
            $0.webSocketsOpen += 1
        }
        defer { counters.count { $0.webSocketsOpen -= 1 } }
        await withTaskGroup(of: Finish.self) { group in
            group.addTask {
                await read(inbound, into: session, outbound: outbound)
            }
            group.addTask {
                while let message = await session.next() {
                    do {
                        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: message)))
                    } catch {
                        return .writeFailed
                    }
                }
                return .letGo
            }
            group.addTask {
                await session.ended()
                return .letGo
            }
            // Whichever finishes first ends the session. A client the hub let go (it stopped
            // reading, or the server is stopping), or one that broke the protocol, may have
            // a write stuck on its full socket, where the close frame would wait behind it
            // for ever: its connection is closed outright, which also ends that write. One
            // that closed cleanly gets the closing handshake, but no more than 5 s of it.
            let first = await group.next()
            await session.end()
            switch first {
            case .letGo, .readFailed:
                try? await channel.close()
            case .clientLeft, .writeFailed, nil:
                channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
            }
            group.cancelAll()
        }
    }

    /// Which side of a session finished first.
    private enum Finish { case clientLeft, readFailed, writeFailed, letGo }

    /// Hands the client's text messages to the session as commands, until the client closes
    /// (`.clientLeft`) or its frames break the protocol or the size limit (`.readFailed`).
    private func read(
        _ inbound: WebSocketInboundStream, into session: FeedSession,
        outbound: WebSocketOutboundWriter
    ) async -> Finish {
        do {
            for try await message in inbound.messages(maxSize: maxMessageBytes) {
                switch message {
                case .text(let text):
                    await session.receive(command: Array(text.utf8))
                case .binary:
                    counters.count { $0.binaryMessages += 1 }
                    await session.reject("commands are JSON objects in text messages; a binary message is not read")
                }
            }
        } catch {
            if Self.isOversize(error) {
                counters.count { $0.oversizeMessages += 1 }
                try? await outbound.close(.messageTooLarge, reason: "message over \(maxMessageBytes) bytes")
            } else if Self.isInvalidText(error) {
                counters.count { $0.invalidText += 1 }
                try? await outbound.close(.dataInconsistentWithMessage, reason: "text message not UTF-8")
            } else if error is NIOWebSocketError {
                // A frame the decoder refused, already counted by `FrameErrorCounter`.
            } else if !(error is CancellationError) {
                counters.count { $0.malformedFrames += 1 }
            }
            return .readFailed
        }
        return .clientLeft
    }

    /// Whether the WebSocket layer gave up on a message of several frames over the size
    /// limit (it closes with 1009 "message too big"); its error type is internal, so the close
    /// code is read from the error's description.
    static func isOversize(_ error: any Error) -> Bool {
        String(describing: error).contains("messageTooLarge")
    }

    /// Whether the WebSocket layer refused a text message that is not UTF-8 (it validates
    /// them, `validateUTF8`); read from the description for the same reason.
    static func isInvalidText(_ error: any Error) -> Bool {
        String(describing: error).contains("dataInconsistentWithMessage")
    }
}
