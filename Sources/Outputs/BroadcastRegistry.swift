import FoundationEssentials
import Logging
import NIOCore
import NetworkSupport
import Support
import Synchronization
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clients of one `TCPBroadcastServer`, on its event loop: who is connected, and since
/// when each one has been too far behind to take more.
final class BroadcastRegistry {
    private struct Client {
        let channel: any Channel
        /// When the client was first found over its high-water mark, nil while it keeps up.
        var behindSince: NIODeadline?
    }

    private var clients: [ObjectIdentifier: Client] = [:]
    private let shared: SharedCounters
    private let name: String
    private let maxClients: Int
    private let logger: Logger
    private var refusals = LogThrottle()
    private var acceptPauses = LogThrottle()

    init(shared: SharedCounters, name: String, maxClients: Int, logger: Logger) {
        self.shared = shared
        self.name = name
        self.maxClients = maxClients
        self.logger = logger
    }

    /// Takes a new client in; false when `maxClients` are already connected (the refusal is
    /// counted and, at most every few seconds, logged).
    func add(_ channel: any Channel) -> Bool {
        guard clients.count < maxClients else {
            let total = shared.statistics.withLock { statistics in
                statistics.clientsRefused += 1
                return statistics.clientsRefused
            }
            if let count = refusals.record(now: .now) {
                logger.warning(
                    "\(name) output: \(count == 1 ? "a client" : "\(count) clients") refused: \(maxClients) connected, the most --max-clients allows",
                    metadata: ["refused": "\(total)"])
            }
            return false
        }
        clients[ObjectIdentifier(channel)] = Client(channel: channel)
        shared.connected.store(clients.count, ordering: .relaxed)
        shared.statistics.withLock { $0.clientsAccepted += 1 }
        logger.info(
            "\(name) output: client connected",
            metadata: [
                "peer": "\(channel.remoteAddress.map { "\($0)" } ?? "?")",
                "clients": "\(clients.count)"
            ])
        return true
    }

    /// The listening socket paused accepting for a second (`AcceptGuard`): counted, and
    /// logged at most every few seconds.
    func acceptPaused(_ error: IOError) {
        shared.statistics.withLock { $0.acceptsPaused += 1 }
        if let count = acceptPauses.record(now: .now) {
            logger.warning(
                "\(name) output: cannot accept clients: \(String(cString: strerror(error.errnoCode))); retrying every second",
                metadata: ["times": "\(count)"])
        }
    }

    func remove(_ channel: any Channel) {
        clients[ObjectIdentifier(channel)] = nil
        shared.connected.store(clients.count, ordering: .relaxed)
    }

    /// Writes `buffer` to every client that can take it; skips it for clients over their
    /// high-water mark and disconnects those that have been over it for `stallTimeout`.
    func broadcast(_ buffer: ByteBuffer, now: NIODeadline, stallTimeout: TimeAmount) {
        var sent = 0
        var skipped = 0
        var stalled: [any Channel] = []
        // A write that fails (the client reset the connection) closes its channel before
        // `writeAndFlush` returns, and the handler removes the client then: so a client is
        // only ever updated where it is still registered, never put back after the write.
        for (key, client) in clients {
            if client.channel.isWritable {
                clients[key]?.behindSince = nil
                client.channel.writeAndFlush(buffer, promise: nil)
                sent += buffer.readableBytes
            } else {
                skipped += buffer.readableBytes
                let since = client.behindSince ?? now
                clients[key]?.behindSince = since
                if now - since >= stallTimeout { stalled.append(client.channel) }
            }
        }
        for channel in stalled {
            logger.notice(
                "\(name) output: client stopped reading: disconnected",
                metadata: ["peer": "\(channel.remoteAddress.map { "\($0)" } ?? "?")"])
            remove(channel)
            channel.close(promise: nil)
        }
        let disconnected = stalled.count
        shared.statistics.withLock {
            $0.bytesBroadcast += sent
            $0.bytesSkipped += skipped
            $0.clientsDisconnectedSlow += disconnected
        }
    }

    /// Closes every client (at shutdown).
    func closeAll() {
        for client in clients.values { client.channel.close(promise: nil) }
        clients.removeAll()
        shared.connected.store(0, ordering: .relaxed)
    }
}
