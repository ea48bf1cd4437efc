import FeedProtocol
import Logging
import NIOCore

/// One feed client, whichever transport carries it: its own view, a bounded outbox, the
/// greeting, answers to its commands, and the two rules that end a client (it stopped reading
/// frames; it sends commands without reading the answers). The hub holds it and delivers
/// frames to it; its `FeedTransport` writes what the outbox releases and closes when told, so
/// every transport follows exactly the same policy and counters. Lives on the feed's event
/// loop.
final class FeedClient {
    /// Where the client is in its life.
    private enum Phase {
        /// Not yet in the hub.
        case connecting
        /// In the hub: greeted, getting frames, answered.
        case served
        /// Being let go: nothing more is read or sent, the transport is closing.
        case closing
        /// Out of the hub (or never taken in).
        case gone
    }

    private let hub: FeedHub
    /// What carries the client's lines; set by the transport, which owns the client.
    weak var transport: (any FeedTransport)?
    /// The client's current view; frames are rendered for it.
    private(set) var view: RadarView
    private var outbox: FeedOutbox<ByteBuffer>
    private var phase = Phase.connecting

    /// A client of `hub`, with the daemon's starting view.
    init(hub: FeedHub) {
        self.hub = hub
        view = hub.configuration.radar.defaultView
        outbox = FeedOutbox(stallTimeout: hub.configuration.stallTimeout)
    }

    /// Whether the client is served: commands and frames for one that is not are ignored.
    var isServed: Bool { phase == .served }

    /// Joins the hub and queues the greeting; false when the feed is full (the transport then
    /// sends `FeedHub.refusal` and closes).
    func join() -> Bool {
        guard phase == .connecting, hub.register(self) else {
            phase = .gone
            return false
        }
        phase = .served
        hub.configuration.logger.debug("feed client connected", metadata: ["clients": "\(hub.statistics.clients)"])
        queueControl(hub.hello(view: view))
        return true
    }

    /// The error for a command over `FeedMessage.maxCommandBytes`.
    static let overlongCommand =
        "command longer than \(FeedMessage.maxCommandBytes) bytes; a command is one JSON object on one line"

    /// Applies one command (a line, or a whole WebSocket message), queueing the new view or
    /// an error. Blank commands are ignored.
    func receive(command bytes: [UInt8]) {
        guard isServed else { return }
        // The same limit whichever way the command came (a WebSocket message may be larger).
        guard bytes.count <= FeedMessage.maxCommandBytes else { return reject(Self.overlongCommand) }
        if bytes.allSatisfy({
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }) {
            return
        }
        switch FeedMessage.apply(commandLine: bytes, to: view) {
        case .success(let newView):
            view = newView
            queueControl(FeedMessage.viewAcknowledgement(newView, declinationDeg: hub.declinationDeg(for: newView)))
        case .failure(let error):
            reject(error.message)
        }
    }

    /// Tells the client that something it sent is not a command: an `error` line, counted.
    func reject(_ message: String) {
        guard isServed else { return }
        hub.statistics.commandsRejected += 1
        queueControl(FeedMessage.error(message))
    }

    /// A new frame line at monotonic time `now` (seconds); a client behind for longer than
    /// the stall timeout is let go.
    func deliver(frame line: ByteBuffer, now: Double) {
        guard isServed else { return }
        switch outbox.offerFrame(line, now: now) {
        case .queued(let replaced):
            if replaced { hub.statistics.framesDropped += 1 }
            transport?.linesWaiting()
        case .stalled:
            hub.statistics.clientsStalled += 1
            hub.configuration.logger.notice(
                "feed client stopped reading for \(hub.configuration.stallTimeout) s: disconnected")
            letGo()
        }
    }

    /// The next line for the transport, if it can take one (`FeedOutbox.nextWrite`).
    func nextWrite(writable: Bool) -> FeedOutbox<ByteBuffer>.Write? {
        outbox.nextWrite(writable: writable)
    }

    /// Whether a line waits for the transport.
    var hasPendingWrite: Bool { outbox.hasPending }

    /// The frame in flight reached the transport: counted, and the client is draining.
    func frameWritten() {
        outbox.frameWritten()
        hub.statistics.framesWritten += 1
    }

    /// The write of the frame in flight failed: the next frame may go (the connection is
    /// ending anyway).
    func frameFailed() {
        outbox.frameWritten()
    }

    /// Lets the client go (it broke a rule, or the server is stopping): nothing more is read
    /// or sent, and the transport closes.
    func letGo() {
        guard phase == .served else { return }
        phase = .closing
        transport?.close()
    }

    /// The transport is gone: the client leaves the hub.
    func left() {
        let wasIn = phase == .served || phase == .closing
        phase = .gone
        guard wasIn else { return }
        hub.unregister(self)
        hub.configuration.logger.debug("feed client left", metadata: ["clients": "\(hub.statistics.clients)"])
    }

    /// Queues a control line; a client with too many unread answers is let go.
    private func queueControl(_ line: String) {
        guard outbox.offerControl(ByteBuffer(string: line)) else {
            hub.configuration.logger.notice("feed client sends commands without reading the answers: disconnected")
            return letGo()
        }
        transport?.linesWaiting()
    }
}
