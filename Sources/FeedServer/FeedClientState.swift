import FeedProtocol
import Logging
import NIOCore

/// What every feed client is owed, whichever transport carries it: its own view, a bounded
/// outbox, answers to its commands, and the two rules that end a client (it stopped reading
/// frames; it sends commands without reading the answers). Transports write what the outbox
/// releases and close when told to, so both follow exactly the same policy and counters.
struct FeedClientState {
    /// Whether the client may stay.
    enum Verdict {
        case keep
        case disconnect
    }

    /// The client's current view; frames are rendered for it.
    private(set) var view: RadarView
    /// Lines waiting for the transport.
    var outbox: FeedOutbox<ByteBuffer>

    init(configuration: FeedConfiguration) {
        view = configuration.radar.defaultView
        outbox = FeedOutbox(stallTimeout: configuration.stallTimeout)
    }

    /// Queues the greeting.
    mutating func greet(hub: FeedHub) -> Verdict {
        control(hub.hello(view: view), hub: hub)
    }

    /// Applies one command (a line, or a whole WebSocket message), queueing the new view or
    /// an error. Blank commands are ignored.
    mutating func command(_ bytes: [UInt8], hub: FeedHub) -> Verdict {
        // The same limit whichever way the command came (a WebSocket message may be larger).
        guard bytes.count <= FeedMessage.maxCommandBytes else { return reject(Self.overlongCommand, hub: hub) }
        if bytes.allSatisfy({
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }) {
            return .keep
        }
        switch FeedMessage.apply(commandLine: bytes, to: view) {
        case .success(let newView):
            view = newView
            return control(FeedMessage.viewAcknowledgement(newView), hub: hub)
        case .failure(let error):
            return reject(error.message, hub: hub)
        }
    }

    /// The error for a command over `FeedMessage.maxCommandBytes`.
    static let overlongCommand =
        "command longer than \(FeedMessage.maxCommandBytes) bytes; a command is one JSON object on one line"

    /// Answers with an `error` line, counted.
    mutating func reject(_ message: String, hub: FeedHub) -> Verdict {
        hub.statistics.commandsRejected += 1
        return control(FeedMessage.error(message), hub: hub)
    }

    /// Queues a control line; a client with too many unread answers is let go.
    private mutating func control(_ line: String, hub: FeedHub) -> Verdict {
        if outbox.offerControl(ByteBuffer(string: line)) { return .keep }
        hub.configuration.logger.notice("feed client sends commands without reading the answers: disconnected")
        return .disconnect
    }

    /// Queues a frame at monotonic time `now`; a client behind for longer than the stall
    /// timeout is let go.
    mutating func frame(_ line: ByteBuffer, now: Double, hub: FeedHub) -> Verdict {
        switch outbox.offerFrame(line, now: now) {
        case .queued(let replaced):
            if replaced { hub.statistics.framesDropped += 1 }
            return .keep
        case .stalled:
            hub.statistics.clientsStalled += 1
            hub.configuration.logger.notice(
                "feed client stopped reading for \(hub.configuration.stallTimeout) s: disconnected")
            return .disconnect
        }
    }

    /// The frame in flight reached the transport.
    mutating func frameWritten(hub: FeedHub) {
        outbox.frameWritten()
        hub.statistics.framesWritten += 1
    }
}
