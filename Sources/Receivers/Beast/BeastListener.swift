import FoundationEssentials
import Logging
import ModeS
import NIOCore
import NIOPosix
import NetworkSupport
import Pipeline
import Support
import Synchronization

/// Takes Beast pushed to us: a listening port that programs connect to and send frames,
/// such as mlat-client returning multilateration results (port 30104 by convention) or
/// another receiver pushing its feed (30004).
///
/// Every connection is read like a `BeastInput` (each frame checked again); at most
/// `maxConnections` at once, further ones are closed at once and counted. The port is bound
/// by `bind`, before the daemon starts, so an address in use is a clear error at start.
package final class BeastListener: Source {
    /// The port could not be listened on; one line for stderr.
    package struct ListenFailure: Error, CustomStringConvertible {
        /// What went wrong, with the address.
        package let description: String
    }

    /// "beast", the radar's source name while Beast pushed to us feeds it.
    package let name = "beast"
    /// "beast-listen ADDR:PORT".
    package let label: String
    /// The port listened on (the one the system picked when asked for port 0).
    package let port: Int
    /// Most connections read at once.
    package let maxConnections: Int
    /// The listening socket (internal for tests, which raise errors on its pipeline).
    let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, Never>, Never>
    private let shared: Shared
    private let open = Mutex(0)
    private let logger: Logger

    /// The counters, made before the listener: the listening socket's guard, set up while
    /// binding, counts into them too.
    private final class Shared: Sendable {
        let counters = Mutex(BeastCounters())
        let pauses = Mutex(LogThrottle())
    }

    private init(
        label: String, port: Int, maxConnections: Int, shared: Shared,
        server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, Never>, Never>, logger: Logger
    ) {
        self.label = label
        self.port = port
        self.maxConnections = maxConnections
        self.shared = shared
        self.server = server
        self.logger = logger
    }

    /// Listens on `host:port` (port 0: any free one). Throws `ListenFailure`.
    package static func bind(host: String, port: Int, maxConnections: Int = 64, logger: Logger) async throws
        -> BeastListener
    {
        let endpoint = BeastInput.endpointText(host, port)
        let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, Never>, Never>
        let shared = Shared()
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 16)
                // Descriptors kept free, and accepting paused while none are (`AcceptGuard`).
                .serverChannelInitializer { channel in
                    AcceptGuard.install(on: channel) { error in
                        shared.counters.withLock { $0.acceptsPaused += 1 }
                        if let count = shared.pauses.withLock({ $0.record(now: .now) }) {
                            logger.warning(
                                "beast-listen \(endpoint): cannot accept connections: \(String(cString: strerror(error.errnoCode))); retrying every second",
                                metadata: ["times": "\(count)"])
                        }
                    }
                }
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A pusher that vanished without closing (a cut cable, a crashed host) must
                // not hold one of the few places for ever.
                .childChannelOption(.socketOption(.so_keepalive), value: 1)
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, Never>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ListenFailure(
                description: "cannot listen on \(endpoint) for Beast input: the address is already in use")
        } catch let error as IOError {
            throw ListenFailure(
                description:
                    "cannot listen on \(endpoint) for Beast input: \(String(cString: strerror(error.errnoCode)))")
        } catch {
            throw ListenFailure(description: "cannot listen on \(endpoint) for Beast input: \(error)")
        }
        let bound = server.channel.localAddress?.port ?? port
        return BeastListener(
            label: "beast-listen \(BeastInput.endpointText(host, bound))", port: bound,
            maxConnections: maxConnections, shared: shared, server: server, logger: logger)
    }

    /// The counters so far.
    package var statistics: BeastCounters { shared.counters.withLock { $0 } }

    /// Accepts and reads connections until the task is cancelled.
    package func run(into sink: any FrameSink) async throws {
        try await withTaskCancellationHandler {
            try await server.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        let admitted = open.withLock { count in
                            guard count < maxConnections else { return false }
                            count += 1
                            return true
                        }
                        guard admitted else {
                            shared.counters.withLock { $0.refused += 1 }
                            logger.warning(
                                "\(label): refused a connection from \(Self.peer(connection)): \(maxConnections) already open"
                            )
                            connection.channel.close(promise: nil)
                            continue
                        }
                        group.addTask {
                            await self.read(connection, into: sink)
                            self.open.withLock { $0 -= 1 }
                        }
                    }
                }
            }
        } onCancel: {
            server.channel.close(promise: nil)
        }
    }

    private func read(_ connection: NIOAsyncChannel<ByteBuffer, Never>, into sink: any FrameSink) async {
        let peer = Self.peer(connection)
        shared.counters.withLock { $0.connections += 1 }
        logger.info("\(label): \(peer) connected")
        var reader = BeastConnectionReader(label: label)
        do {
            try await connection.executeThenClose { inbound, _ in
                for try await buffer in inbound {
                    reader.read(buffer, into: sink, counting: shared.counters)
                }
            }
            logger.info("\(label): \(peer) closed the connection")
        } catch {
            logger.info("\(label): \(peer) went away: \(error)")
        }
    }

    private static func peer(_ connection: NIOAsyncChannel<ByteBuffer, Never>) -> String {
        connection.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "a client"
    }
}
