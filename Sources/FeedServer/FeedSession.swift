import FeedProtocol
import Logging
import NIOCore

/// One feed client over a transport that writes asynchronously, such as a WebSocket: the
/// transport asks for the next message, writes it, and asks again; it hands over the
/// client's commands as they arrive. The hub treats it exactly like a Unix-socket client:
/// the same greeting, view commands, bounded outbox, stall and flood rules, client limit and
/// counters.
///
/// Messages are the feed's lines without their newline: one JSON object each.
package final class FeedSession: Sendable {
    private let core: NIOLoopBound<FeedSessionCore>
    /// The `error` message to send (then close) when the feed was full; nil when the session
    /// was taken in.
    package let refusal: ByteBuffer?

    init(core: NIOLoopBound<FeedSessionCore>, refusal: ByteBuffer?) {
        self.core = core
        self.refusal = refusal
    }

    private var loop: any EventLoop { core.eventLoop }

    /// The next message to send, waiting until there is one; nil once the session has ended
    /// (the client fell behind, flooded, the server shut down, or `end()` was called).
    /// Calling it again means the previous message has been written.
    package func next() async -> ByteBuffer? {
        let core = self.core
        return try? await loop.flatSubmit { core.value.next() }.get()
    }

    /// A command from the client: one JSON object (a WebSocket text message).
    package func receive(command: [UInt8]) async {
        let core = self.core
        try? await loop.submit { core.value.receive(command: command) }.get()
    }

    /// Tells the client that something it sent is not a command (an `error` message, counted).
    package func reject(_ message: String) async {
        let core = self.core
        try? await loop.submit { core.value.reject(message) }.get()
    }

    /// Returns once the session has ended, from either side.
    package func ended() async {
        let core = self.core
        try? await loop.flatSubmit { core.value.endedFuture }.get()
    }

    /// The transport is gone: leave the hub.
    package func end() async {
        let core = self.core
        try? await loop.submit { core.value.finish() }.get()
    }
}

/// The loop side of a `FeedSession`.
final class FeedSessionCore: FeedSubscriber {
    private let hub: FeedHub
    private var state: FeedClientState
    private var waiter: EventLoopPromise<ByteBuffer?>?
    private let endedPromise: EventLoopPromise<Void>
    private var isEnded = false
    private var registered = false
    /// A frame was handed out and its write has not been confirmed by the next `next()`.
    private var frameHandedOut = false

    init(hub: FeedHub, loop: any EventLoop) {
        self.hub = hub
        state = FeedClientState(configuration: hub.configuration)
        endedPromise = loop.makePromise()
    }

    /// Joins the hub and queues the greeting; false when the feed is full.
    func start() -> Bool {
        guard hub.register(self) else {
            isEnded = true
            endedPromise.succeed()
            return false
        }
        registered = true
        hub.configuration.logger.debug("feed session opened", metadata: ["clients": "\(hub.statistics.clients)"])
        act(state.greet(hub: hub))
        return true
    }

    var view: RadarView { state.view }
    var endedFuture: EventLoopFuture<Void> { endedPromise.futureResult }

    func deliver(frame: ByteBuffer, now: Double) {
        act(state.frame(frame, now: now, hub: hub))
    }

    func close() { finish() }

    func receive(command: [UInt8]) {
        guard !isEnded else { return }
        act(state.command(command, hub: hub))
    }

    func reject(_ message: String) {
        guard !isEnded else { return }
        act(state.reject(message, hub: hub))
    }

    func next() -> EventLoopFuture<ByteBuffer?> {
        if frameHandedOut {
            frameHandedOut = false
            state.frameWritten(hub: hub)
        }
        if isEnded { return endedPromise.futureResult.eventLoop.makeSucceededFuture(nil) }
        if let message = take() { return endedPromise.futureResult.eventLoop.makeSucceededFuture(message) }
        waiter?.succeed(nil)
        let promise = endedPromise.futureResult.eventLoop.makePromise(of: ByteBuffer?.self)
        waiter = promise
        return promise.futureResult
    }

    func finish() {
        guard !isEnded else { return }
        isEnded = true
        if registered {
            hub.unregister(self)
            hub.configuration.logger.debug("feed session closed", metadata: ["clients": "\(hub.statistics.clients)"])
        }
        waiter?.succeed(nil)
        waiter = nil
        endedPromise.succeed()
    }

    private func act(_ verdict: FeedClientState.Verdict) {
        switch verdict {
        case .keep:
            if let waiting = waiter, let message = take() {
                waiter = nil
                waiting.succeed(message)
            }
        case .disconnect:
            finish()
        }
    }

    /// The next line the outbox releases, without its newline.
    private func take() -> ByteBuffer? {
        guard let write = state.outbox.nextWrite(writable: true) else { return nil }
        switch write {
        case .control(let line): return Self.message(line)
        case .frame(let line):
            frameHandedOut = true
            return Self.message(line)
        }
    }

    private static func message(_ line: ByteBuffer) -> ByteBuffer {
        guard line.readableBytesView.last == UInt8(ascii: "\n") else { return line }
        return line.getSlice(at: line.readerIndex, length: line.readableBytes - 1) ?? line
    }
}
