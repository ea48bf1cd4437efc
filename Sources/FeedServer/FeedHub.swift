import FeedProtocol
import FoundationEssentials
import Logging
import NIOCore
import NetworkSupport
import SkyProjection
import Support
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The feed's shared state on its event loop: the connected clients, what greetings say (the
/// receiver and the source, as the server last announced them), and the counters. Confined
/// to the server's one event loop, so it needs no locks.
final class FeedHub {
    /// The server's configuration.
    let configuration: FeedConfiguration
    /// The receiver the greetings name; set by `announce`, never by a frame.
    private(set) var observer: Observer?
    /// The source the greetings name; set by `announce`.
    private(set) var source = "none"
    /// The server's counters.
    var statistics = FeedStatistics()
    private var clients: [ObjectIdentifier: FeedClient] = [:]
    private var refusals = LogThrottle()
    private var acceptPauses = LogThrottle()
    private var declination: FeedDeclination

    /// A hub with no client yet.
    init(configuration: FeedConfiguration) {
        self.configuration = configuration
        declination = FeedDeclination(logger: configuration.logger)
    }

    /// Sets what the next greetings say: the server calls it at start and before each frame.
    func announce(observer: Observer?, source: String) {
        self.observer = observer
        self.source = source
    }

    /// The greeting line of a client starting with `view`.
    func hello(view: RadarView) -> String {
        FeedHello(
            receiver: observer, source: source, frameIntervalSeconds: configuration.radar.frameInterval, view: view,
            declinationDeg: declinationDeg(for: view)
        ).jsonLine
    }

    /// The magnetic declination at `view`'s observer, else the receiver, now; nil when
    /// neither is known.
    func declinationDeg(for view: RadarView) -> Double? {
        declination.degrees(at: view.observer ?? observer, secondsSince1970: configuration.wallClock())
    }

    /// Takes a new client in; false when `maxClients` are already connected (the refusal is
    /// counted and, at most every few seconds, logged).
    func register(_ client: FeedClient) -> Bool {
        guard clients.count < configuration.maxClients else {
            statistics.clientsRefused += 1
            if let count = refusals.record(now: .now) {
                configuration.logger.warning(
                    "feed: \(count == 1 ? "a client" : "\(count) clients") refused: \(configuration.maxClients) connected, the most --max-clients allows",
                    metadata: ["refused": "\(statistics.clientsRefused)"])
            }
            return false
        }
        clients[ObjectIdentifier(client)] = client
        statistics.clientsAccepted += 1
        statistics.clients = clients.count
        return true
    }

    /// The `error` line a client over the limit is sent before it is closed.
    var refusal: String {
        FeedMessage.error("the feed is serving its maximum of \(configuration.maxClients) clients; try again later")
    }

    /// The listening socket paused accepting for a second (`AcceptGuard`): counted, and
    /// logged at most every few seconds.
    func acceptPaused(_ error: IOError) {
        statistics.acceptsPaused += 1
        if let count = acceptPauses.record(now: .now) {
            configuration.logger.warning(
                "feed: cannot accept clients: \(String(cString: strerror(error.errnoCode))); retrying every second",
                metadata: ["times": "\(count)"])
        }
    }

    /// Lets a client that left go.
    func unregister(_ client: FeedClient) {
        clients[ObjectIdentifier(client)] = nil
        statistics.clients = clients.count
    }

    /// Renders `scene` once per distinct client view and hands each client its frame, at
    /// monotonic time `now` (seconds). What greetings say is not its business (`announce`).
    func broadcast(_ scene: RadarScene, allocator: ByteBufferAllocator, now: Double) {
        statistics.frames += 1
        guard !clients.isEmpty else { return }
        let lines = scene.frameLines(for: Set(clients.values.map(\.view)))
        var buffers: [RadarView: ByteBuffer] = [:]
        for client in clients.values {
            let view = client.view
            let buffer = buffers[view] ?? allocator.buffer(string: lines[view] ?? "")
            buffers[view] = buffer
            client.deliver(frame: buffer, now: now)
        }
    }

    /// Lets every client go: the server is stopping.
    func closeAll() {
        for client in clients.values { client.letGo() }
    }
}
