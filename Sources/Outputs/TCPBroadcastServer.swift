import Logging
import NIOCore
import NIOPosix
import NetworkSupport
import Synchronization
import Tracking

/// A TCP server that sends one byte stream to every connected client: the transport of the
/// Beast, SBS and AVR outputs.
///
/// Receivers append encoded bytes from any thread (`append`), under a short lock and without
/// touching the network. The event loop takes what accumulated every flush interval (25 ms by
/// default) and writes it to all clients as one buffer, shared, not copied per client.
/// Appends are whole frames or lines, so a stream stays aligned whatever is dropped.
///
/// Nothing a client does can hold up the receivers or the other clients. Each client may have
/// at most `highWaterMark` bytes waiting in the server; while it is over that mark the batches
/// it cannot take are skipped for it alone, and a client that stays over the mark for
/// `stallTimeout` seconds has stopped reading: it is disconnected and counted. The bytes
/// waiting between flushes are bounded too (`maximumPendingBytes`), in case the event loop
/// itself is late.
///
/// Use: `let server = try await TCPBroadcastServer.bind(configuration)` opens the port, then
/// `try await server.run()` flushes until its task is cancelled and closes everything — the
/// shape of a swift-service-lifecycle `Service`.
package final class TCPBroadcastServer: Sendable {
    /// Where to listen and how much to buffer.
    package struct Configuration: Sendable {
        /// The output's name in messages ("Beast", "SBS", "AVR").
        package var name: String
        /// Address to listen on.
        package var host: String
        /// Port to listen on; 0 lets the system choose (see `port`).
        package var port: Int
        /// How often accumulated bytes are sent: short enough to add no visible latency,
        /// long enough that a busy sky costs tens of writes a second, not thousands.
        package var flushInterval: TimeAmount = .milliseconds(25)
        /// Bytes a client may have waiting in the server before batches are skipped for it.
        /// 256 KiB is minutes of a busy Beast feed for a client that reads at all.
        package var highWaterMark = 256 * 1024
        /// Seconds a client may stay over the high-water mark before it is disconnected.
        package var stallTimeout = 5.0
        /// Bytes accumulated between two flushes beyond which appends are dropped (the event
        /// loop is late); a busy sky produces a few kilobytes per flush.
        package var maximumPendingBytes = 1024 * 1024
        /// Most clients served at once; one more is closed as soon as it is accepted (the
        /// formats have no way to say why). Each client holds a file descriptor, and a flood
        /// of idle connections must not use up the ones the daemon needs elsewhere.
        package var maxClients = Configuration.defaultMaxClients
        /// Default of `maxClients`: more feeders and tools than one receiver ever has, and a
        /// small part of the usual limit of 1,024 descriptors per process.
        package static let defaultMaxClients = 256
        /// Kernel send buffer of each client socket (nil: the system's default).
        package var sendBufferBytes: Int?
        /// Where clients arriving and slow clients cut off are logged.
        package var logger = Logger(label: "aviator-adsb.output")

        /// A configuration for output `name` on `host:port` with the default limits.
        package init(name: String, host: String, port: Int) {
            self.name = name
            self.host = host
            self.port = port
        }
    }

    /// Counters of the server.
    package struct Statistics: Sendable, Equatable {
        /// Clients accepted since the start.
        package var clientsAccepted = 0
        /// Clients connected now.
        package var clientsConnected = 0
        /// Clients disconnected because they stopped reading.
        package var clientsDisconnectedSlow = 0
        /// Clients closed at once because `maxClients` were already connected.
        package var clientsRefused = 0
        /// Times accepting paused because the process had no file descriptor left.
        package var acceptsPaused = 0
        /// Bytes written to clients, summed over the clients.
        package var bytesBroadcast = 0
        /// Frames or lines dropped because the event loop fell behind.
        package var framesDropped = 0
        /// Bytes skipped for individual clients over their high-water mark.
        package var bytesSkipped = 0
    }

    /// The configuration the server was bound with.
    package let configuration: Configuration
    /// The port actually listened on (the chosen one when the configuration said 0).
    package let port: Int
    private let loop: any EventLoop
    private let channel: any Channel
    private let registry: NIOLoopBound<BroadcastRegistry>
    private let pending = Mutex<[UInt8]>([])
    private let shared: SharedCounters
    private let flushTask = Mutex<RepeatedTask?>(nil)

    private init(
        configuration: Configuration, port: Int, loop: any EventLoop, channel: any Channel,
        registry: NIOLoopBound<BroadcastRegistry>, shared: SharedCounters
    ) {
        self.configuration = configuration
        self.port = port
        self.loop = loop
        self.channel = channel
        self.registry = registry
        self.shared = shared
    }

    /// Opens the listening socket. Throws an `OutputError` (one line) when the port is taken or
    /// the address cannot be listened on.
    package static func bind(
        _ configuration: Configuration,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> TCPBroadcastServer {
        let loop = group.next()
        let shared = SharedCounters()
        let registry = try await loop.submit {
            NIOLoopBound(
                BroadcastRegistry(
                    shared: shared, name: configuration.name, maxClients: configuration.maxClients,
                    logger: configuration.logger),
                eventLoop: loop)
        }.get()
        if configuration.maxClients < 1 {
            throw OutputError.cannotListen(
                output: configuration.name, host: configuration.host, port: configuration.port,
                reason: "it must allow at least 1 client")
        }
        var bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: 64)
            // When accept finds no free descriptor (or would leave too few), wait a second
            // before the next attempt instead of retrying in a busy loop; the socket stays open.
            .serverChannelInitializer { channel in
                AcceptGuard.install(on: channel) { error in registry.value.acceptPaused(error) }
            }
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: configuration.highWaterMark / 2, high: configuration.highWaterMark))
        if let bytes = configuration.sendBufferBytes {
            bootstrap = bootstrap.childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(bytes))
        }
        bootstrap = bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(BroadcastClientHandler(registry: registry.value))
            }
        }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw OutputError.addressInUse(
                output: configuration.name, host: configuration.host, port: configuration.port)
        } catch let error as IOError {
            throw OutputError.cannotListen(
                output: configuration.name, host: configuration.host, port: configuration.port,
                reason: String(cString: strerror(error.errnoCode)))
        } catch {
            throw OutputError.cannotListen(
                output: configuration.name, host: configuration.host, port: configuration.port,
                reason: "\(error)")
        }
        let port = channel.localAddress?.port ?? configuration.port
        return TCPBroadcastServer(
            configuration: configuration, port: port, loop: loop, channel: channel,
            registry: registry, shared: shared)
    }

    /// Whether any client is connected: callers skip encoding when nobody listens.
    package var hasClients: Bool { shared.connected.load(ordering: .relaxed) > 0 }

    /// Appends bytes written by `encode` (whole frames or lines) to the next batch. Cheap and
    /// safe from any thread; does nothing when no client is connected, and drops the bytes
    /// (counted) when the batch is already at its limit.
    package func append(_ encode: (inout [UInt8]) -> Void) {
        guard hasClients else { return }
        let limit = configuration.maximumPendingBytes
        let dropped = pending.withLock { bytes -> Int in
            guard bytes.count < limit else { return 1 }
            encode(&bytes)
            return 0
        }
        if dropped > 0 { shared.statistics.withLock { $0.framesDropped += dropped } }
    }

    /// Appends `bytes` to the next batch (see `append(_:)`).
    package func append(bytes: [UInt8]) {
        append { $0.append(contentsOf: bytes) }
    }

    /// The counters so far.
    package var statistics: Statistics {
        var statistics = shared.statistics.withLock { $0 }
        statistics.clientsConnected = shared.connected.load(ordering: .relaxed)
        return statistics
    }

    /// Sends a batch every flush interval until the calling task is cancelled, then closes the
    /// listening socket and every client.
    package func run() async throws {
        let task = loop.scheduleRepeatedTask(
            initialDelay: configuration.flushInterval,
            delay: configuration.flushInterval
        ) { [self] _ in
            flush()
        }
        flushTask.withLock { $0 = task }
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(3600)) } catch { break }
        }
        await shutdown()
    }

    /// Stops accepting and closes every client. Safe to call twice.
    package func shutdown() async {
        flushTask.withLock { task in
            task?.cancel()
            task = nil
        }
        try? await channel.close()
        let registry = self.registry
        try? await loop.submit { registry.value.closeAll() }.get()
    }

    /// Sends what accumulated to every client; on the event loop.
    private func flush() {
        var batch: [UInt8] = []
        pending.withLock { swap(&$0, &batch) }
        guard !batch.isEmpty else { return }
        let buffer = channel.allocator.buffer(bytes: batch)
        let now = NIODeadline.now()
        let stall = TimeAmount.nanoseconds(Int64(configuration.stallTimeout * 1e9))
        registry.value.broadcast(buffer, now: now, stallTimeout: stall)
    }
}

/// Counters shared between the server and its registry.
final class SharedCounters: Sendable {
    let statistics = Mutex(TCPBroadcastServer.Statistics())
    let connected = Atomic<Int>(0)
}
