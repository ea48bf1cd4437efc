import FeedProtocol
import FoundationEssentials
import NIOCore
import NIOPosix
import NetworkSupport
import ServiceLifecycle
import SkyProjection
import Tracking

/// The live radar feed: a Unix stream socket that any number of clients connect to, each
/// receiving a greeting and then one radar frame per interval, rendered for its own view.
///
/// Use: `let server = try await FeedServer.bind(configuration:provider:)` claims the socket
/// (replacing a stale one, refusing a live one) and starts accepting; `try await server.run()`
/// sends frames until its task is cancelled, then closes every connection and removes the
/// socket. It is a swift-service-lifecycle `Service`: add it to the daemon's `ServiceGroup`,
/// whose cancellation on SIGINT/SIGTERM stops it cleanly.
///
/// All connections share one event loop: at one frame a second even hundreds of clients are
/// light work, and one loop keeps the client registry free of locks. The aircraft are
/// projected once per frame; each distinct view is rendered once and shared by the clients
/// that use it.
package final class FeedServer: Service, Sendable {
    /// The configuration the server was bound with.
    package let configuration: FeedConfiguration
    private let provider: any RadarSnapshotProvider
    private let loop: any EventLoop
    private let channel: any Channel
    private let hub: NIOLoopBound<FeedHub>
    private let socketIdentity: FileIdentity?

    private init(
        configuration: FeedConfiguration, provider: any RadarSnapshotProvider, loop: any EventLoop,
        channel: any Channel, hub: NIOLoopBound<FeedHub>, socketIdentity: FileIdentity?
    ) {
        self.configuration = configuration
        self.provider = provider
        self.loop = loop
        self.channel = channel
        self.hub = hub
        self.socketIdentity = socketIdentity
    }

    /// Claims the socket and starts accepting clients (they are greeted at once; frames start
    /// with `run()`). Throws a `FeedError` whose description is one line for stderr.
    package static func bind(
        configuration: FeedConfiguration, provider: any RadarSnapshotProvider,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> FeedServer {
        if let problem = configuration.radar.problem { throw FeedError.invalidConfiguration(problem) }
        if let problem = configuration.radar.defaultView.problem { throw FeedError.invalidConfiguration(problem) }
        if configuration.maxClients < 1 {
            throw FeedError.invalidConfiguration("the feed must allow at least 1 client")
        }
        let path = configuration.socketPath
        if let directory = configuration.privateDirectory {
            do throws(PrivateDirectory.Problem) {
                try PrivateDirectory.create(directory)
            } catch {
                throw FeedError.unsafeDirectory(error)
            }
        }
        try SocketPath.prepare(path)

        let loop = group.next()
        let snapshot = await provider.radarSnapshot()
        let hub = try await loop.submit {
            let hub = FeedHub(configuration: configuration)
            hub.announce(observer: snapshot.observer, source: snapshot.source)
            return NIOLoopBound(hub, eventLoop: loop)
        }.get()

        let bootstrap = ServerBootstrap(group: loop)
            // When accept finds no free descriptor (or would leave too few), wait a second
            // before the next attempt instead of retrying in a busy loop; the socket stays open.
            .serverChannelInitializer { channel in
                AcceptGuard.install(on: channel) { error in hub.value.acceptPaused(error) }
            }
            // Above 256 KiB of unwritten bytes a client stops taking control lines until it
            // drains below 64 KiB; frames are bounded separately, one in flight at a time.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(UnixSocketTransport(hub: hub.value))
                }
            }
        let descriptor = try SocketListener.open(path: path, mode: configuration.socketMode, backlog: 256)
        let identity = SocketPath.identity(of: path)
        let channel: any Channel
        do {
            channel = try await bootstrap.withBoundSocket(descriptor).get()
        } catch {
            SocketPath.remove(path, ifStill: identity)
            throw FeedError.system(operation: "listen", path: path, message: "\(error)")
        }
        return FeedServer(
            configuration: configuration, provider: provider, loop: loop, channel: channel,
            hub: hub, socketIdentity: identity)
    }

    /// Sends a frame every interval until the calling task is cancelled or, inside a
    /// `ServiceGroup`, a graceful shutdown begins; then shuts down: closes all connections and
    /// removes the socket. Call it once.
    package func run() async throws {
        await cancelWhenGracefulShutdown { await self.sendFrames() }
        await shutdown()
    }

    /// The frame ticker. Frames are paced by deadlines, so a late frame does not delay the
    /// next ones; if the server falls behind by more than an interval it skips ahead rather
    /// than sending a burst.
    private func sendFrames() async {
        let clock = ContinuousClock()
        let interval = Duration.nanoseconds(Int64(configuration.radar.frameInterval * 1e9))
        var deadline = clock.now
        var seq: UInt64 = 0
        while !Task.isCancelled {
            let snapshot = await provider.radarSnapshot()
            seq += 1
            let scene = RadarScene(seq: seq, time: Date().timeIntervalSince1970, snapshot: snapshot)
            let hub = self.hub
            try? await loop.submit {
                // Clients arriving from now on are greeted with this frame's receiver and source.
                hub.value.announce(observer: scene.observer, source: scene.source)
                hub.value.broadcast(scene, allocator: ByteBufferAllocator(), now: Self.monotonicSeconds())
            }.get()
            deadline += interval
            if deadline < clock.now { deadline = clock.now }
            do {
                try await Task.sleep(until: deadline, clock: clock)
            } catch {
                return  // cancelled
            }
        }
    }

    /// Stops accepting, closes every client and removes the socket. Safe to call twice.
    package func shutdown() async {
        try? await channel.close()
        let hub = self.hub
        try? await loop.submit { hub.value.closeAll() }.get()
        SocketPath.remove(configuration.socketPath, ifStill: socketIdentity)
    }

    /// Opens a session for a client of another transport (the WebSocket feed): it joins the
    /// same hub as the socket's clients, within the same client limit. When the feed is full
    /// the session comes back with a `refusal` to send and nothing else. Throws only when the
    /// server's event loop has stopped.
    package func openSession() async throws -> FeedSession {
        let hub = self.hub
        let loop = self.loop
        return try await loop.submit { FeedSession(hub: hub.value, loop: loop) }.get()
    }

    /// The server's counters.
    package func statistics() async -> FeedStatistics {
        let hub = self.hub
        return (try? await loop.submit { hub.value.statistics }.get()) ?? FeedStatistics()
    }

    /// Seconds on a monotonic clock, for stall timing.
    static func monotonicSeconds() -> Double {
        Double(NIODeadline.now().uptimeNanoseconds) / 1e9
    }
}
