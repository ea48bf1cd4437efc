import FoundationEssentials
import Logging
import ModeS
import NIOCore
import NIOPosix
import Pipeline
import Synchronization

/// Reads frames from an existing receiver's Beast TCP output (dump1090, readsb, a feeder),
/// so this daemon can sit on top of a program that already owns the dongle.
///
/// Every frame is checked again by a `FrameValidator` (the sender's checks are not taken on
/// trust), then merged into the pipeline. The connection is retried with exponential backoff
/// (1 s doubling to 30 s) whenever it cannot be made or is lost, and given up as lost when
/// nothing arrives for `readTimeout` (readsb and dump1090 send a heartbeat every minute even
/// with no aircraft in range).
package final class BeastInput: Source {
    /// Host to connect to.
    package let host: String
    /// Port to connect to.
    package let port: Int
    private let logger: Logger
    private let counters = Mutex(BeastCounters())
    private let maximumBackoff: Duration
    /// How long the connection may stay silent before it counts as lost.
    package let readTimeout: TimeAmount

    /// "beast", the radar's source name while another receiver's Beast output feeds it.
    package let name = "beast"
    /// "beast-in HOST:PORT".
    package var label: String { "beast-in \(Self.endpointText(host, port))" }

    /// An input from `host:port`.
    package init(
        host: String, port: Int, logger: Logger, maximumBackoff: Duration = .seconds(30),
        readTimeout: TimeAmount = .seconds(180)
    ) {
        self.host = host
        self.port = port
        self.logger = logger
        self.maximumBackoff = maximumBackoff
        self.readTimeout = readTimeout
    }

    /// Parses "HOST:PORT" (a bracketed IPv6 host is accepted); nil when malformed.
    package static func endpoint(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// "HOST:PORT", with an IPv6 host in brackets.
    static func endpointText(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The counters so far.
    package var statistics: BeastCounters { counters.withLock { $0 } }

    /// Connects and reads until the task is cancelled, reconnecting as needed.
    package func run(into sink: any FrameSink) async throws {
        var validator = FrameValidator()
        await Reconnecting(label: label, maximumBackoff: maximumBackoff, logger: logger).run {
            try await readConnection(into: sink, validator: &validator)
        }
    }

    private func readConnection(into sink: any FrameSink, validator: inout FrameValidator) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: port) { [readTimeout] channel in
                channel.eventLoop.makeCompletedFuture {
                    try ReadTimeout.install(on: channel, limit: readTimeout)
                    return try NIOAsyncChannel<ByteBuffer, Never>(wrappingChannelSynchronously: channel)
                }
            }
        counters.withLock { $0.connections += 1 }
        logger.info("\(label): connected")
        var reader = BeastConnectionReader(label: label, validator: validator)
        defer { validator = reader.learnt }
        try await channel.executeThenClose { inbound, _ in
            for try await buffer in inbound {
                reader.read(buffer, into: sink, counting: counters)
            }
        }
    }
}
