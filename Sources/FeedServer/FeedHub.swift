import NIOCore
import FeedProtocol
import SkyProjection

/// The feed's shared state on its event loop: the connected clients, the latest receiver and
/// source (for greetings), and the counters. Confined to the server's one event loop, so it
/// needs no locks.
final class FeedHub {
    let configuration: FeedConfiguration
    private(set) var observer: Observer?
    private(set) var source = "none"
    var statistics = FeedStatistics()
    private var clients: [ObjectIdentifier: FeedClientHandler] = [:]

    init(configuration: FeedConfiguration) {
        self.configuration = configuration
    }

    /// Remembers what the next greetings say.
    func update(observer: Observer?, source: String) {
        self.observer = observer
        self.source = source
    }

    func register(_ client: FeedClientHandler) {
        clients[ObjectIdentifier(client)] = client
        statistics.clientsAccepted += 1
        statistics.clients = clients.count
    }

    func unregister(_ client: FeedClientHandler) {
        clients[ObjectIdentifier(client)] = nil
        statistics.clients = clients.count
    }

    /// Renders `scene` once per distinct client view and hands each client its frame.
    func broadcast(_ scene: RadarScene, allocator: ByteBufferAllocator, now: Double) {
        update(observer: scene.observer, source: scene.source)
        statistics.frames += 1
        var rendered: [RadarView: ByteBuffer] = [:]
        for client in clients.values {
            let buffer: ByteBuffer
            if let done = rendered[client.view] {
                buffer = done
            } else {
                buffer = allocator.buffer(string: scene.frame(for: client.view).jsonLine)
                rendered[client.view] = buffer
            }
            client.deliver(frame: buffer, now: now)
        }
    }

    /// Closes every client connection.
    func closeAll() {
        for client in clients.values { client.close() }
    }
}
