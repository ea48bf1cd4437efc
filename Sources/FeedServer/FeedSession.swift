import FeedProtocol
import NIOCore

/// One feed client over a transport that writes one message at a time, asynchronously, such
/// as the WebSocket: the transport asks for the next message, writes it, and asks again; it
/// hands over the client's commands as they arrive. Its `FeedClient` is the same as a
/// Unix-socket client's: the same greeting, view commands, bounded outbox, stall and flood
/// rules, client limit and counters.
///
/// Messages are the feed's lines without their newline: one JSON object each. Its methods
/// may be called from any task; its state lives on the feed's event loop.
package final class FeedSession: Sendable, FeedTransport {
    /// The loop-side state of the exchange.
    private struct Exchange {
        /// The transport's call of `next()` waiting for a message.
        var waiter: EventLoopPromise<ByteBuffer?>?
        /// A frame was handed out and its write has not been confirmed by the next `next()`.
        var frameHandedOut = false
        /// The session has ended, from either side.
        var ended = false
    }

    private let client: NIOLoopBound<FeedClient>
    private let exchange: NIOLoopBoundBox<Exchange>
    private let endedPromise: EventLoopPromise<Void>
    /// The `error` message to send (then close) when the feed was full; nil when the session
    /// was taken in.
    package let refusal: ByteBuffer?

    /// Opens a session of a client of `hub` on `loop` (the hub's): it joins the hub, or comes
    /// back with a `refusal` when the feed is full. Call it on `loop`.
    init(hub: FeedHub, loop: any EventLoop) {
        let client = FeedClient(hub: hub)
        self.client = NIOLoopBound(client, eventLoop: loop)
        endedPromise = loop.makePromise()
        let joined = client.join()
        exchange = NIOLoopBoundBox(Exchange(ended: !joined), eventLoop: loop)
        refusal = joined ? nil : ByteBuffer(string: String(hub.refusal.dropLast()))
        client.transport = self
        if !joined { endedPromise.succeed() }
    }

    private var loop: any EventLoop { client.eventLoop }

    /// The next message to send, waiting until there is one; nil once the session has ended
    /// (the client fell behind, flooded, the server shut down, or `end()` was called).
    /// Calling it again means the previous message has been written.
    package func next() async -> ByteBuffer? {
        try? await loop.flatSubmit { self.nextOnLoop() }.get()
    }

    /// A command from the client: one JSON object (a WebSocket text message).
    package func receive(command: [UInt8]) async {
        try? await loop.submit { self.client.value.receive(command: command) }.get()
    }

    /// Tells the client that something it sent is not a command (an `error` message, counted).
    package func reject(_ message: String) async {
        try? await loop.submit { self.client.value.reject(message) }.get()
    }

    /// Returns once the session has ended, from either side.
    package func ended() async {
        try? await endedPromise.futureResult.get()
    }

    /// The transport is gone: leave the hub.
    package func end() async {
        try? await loop.submit { self.finish() }.get()
    }

    /// Hands a waiting `next()` the next message.
    func linesWaiting() {
        guard let waiter = exchange.value.waiter, let message = take() else { return }
        exchange.value.waiter = nil
        waiter.succeed(message)
    }

    /// The client is let go: the session ends.
    func close() { finish() }

    private func nextOnLoop() -> EventLoopFuture<ByteBuffer?> {
        if exchange.value.frameHandedOut {
            exchange.value.frameHandedOut = false
            client.value.frameWritten()
        }
        if exchange.value.ended { return loop.makeSucceededFuture(nil) }
        if let message = take() { return loop.makeSucceededFuture(message) }
        exchange.value.waiter?.succeed(nil)
        let promise = loop.makePromise(of: ByteBuffer?.self)
        exchange.value.waiter = promise
        return promise.futureResult
    }

    private func finish() {
        guard !exchange.value.ended else { return }
        exchange.value.ended = true
        client.value.left()
        let waiter = exchange.value.waiter
        exchange.value.waiter = nil
        waiter?.succeed(nil)
        endedPromise.succeed()
    }

    /// The next line the outbox releases, without its newline.
    private func take() -> ByteBuffer? {
        guard let write = client.value.nextWrite(writable: true) else { return nil }
        switch write {
        case .control(let line): return Self.message(line)
        case .frame(let line):
            exchange.value.frameHandedOut = true
            return Self.message(line)
        }
    }

    private static func message(_ line: ByteBuffer) -> ByteBuffer {
        guard line.readableBytesView.last == UInt8(ascii: "\n") else { return line }
        return line.getSlice(at: line.readerIndex, length: line.readableBytes - 1) ?? line
    }
}
