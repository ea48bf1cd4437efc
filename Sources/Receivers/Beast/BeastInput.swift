import Foundation
import Logging
import ModeS
import NIOCore
import NIOPosix
import Synchronization
import Tracking

/// Reads frames from an existing receiver's Beast TCP output (dump1090, readsb, a feeder),
/// so this daemon can sit on top of a program that already owns the dongle.
///
/// Every frame is checked again by a `FrameValidator` (the sender's checks are not taken on
/// trust), then merged into the tracker. The connection is retried with exponential backoff
/// (1 s doubling to 30 s) whenever it cannot be made or is lost.
public final class BeastInput: Source {
    /// Statistics of the input.
    public struct Counters: Sendable, Equatable {
        /// Frames that passed the validator.
        public var accepted = 0
        /// Frames the validator rejected.
        public var rejected = 0
        /// Frames the parser dropped as malformed.
        public var malformed = 0
        /// Accepted frames that were multilateration results.
        public var multilaterated = 0
        /// Connections made.
        public var connections = 0

        /// The counters for the statistics line.
        public var summary: String {
            "beast in: \(accepted) frames, \(multilaterated) of them mlat, \(rejected) failed the parity check, "
                + "\(malformed) malformed, \(connections) connections"
        }
    }

    /// Host to connect to.
    public let host: String
    /// Port to connect to.
    public let port: Int
    private let logger: Logger
    private let counters = Mutex(Counters())
    private let maximumBackoff: Duration

    /// "beast", the radar's source name while another receiver's Beast output feeds it.
    public let name = "beast"

    /// An input from `host:port`.
    public init(host: String, port: Int, logger: Logger, maximumBackoff: Duration = .seconds(30)) {
        self.host = host
        self.port = port
        self.logger = logger
        self.maximumBackoff = maximumBackoff
    }

    /// Parses "HOST:PORT" (a bracketed IPv6 host is accepted); nil when malformed.
    public static func endpoint(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// The counters so far.
    public var statistics: Counters { counters.withLock { $0 } }

    /// Connects and reads until the task is cancelled, reconnecting as needed.
    public func run(into tracker: LiveTracker) async throws {
        var backoff = Duration.seconds(1)
        var validator = FrameValidator()
        while !Task.isCancelled {
            do {
                try await readConnection(into: tracker, validator: &validator)
                backoff = .seconds(1)
                logger.warning("Beast input \(host):\(port) closed the connection; reconnecting")
            } catch is CancellationError {
                return
            } catch {
                logger.warning("Beast input \(host):\(port): \(error); retrying in \(backoff)")
            }
            do { try await Task.sleep(for: backoff) } catch { return }
            backoff = min(backoff * 2, maximumBackoff)
        }
    }

    private func readConnection(into tracker: LiveTracker, validator: inout FrameValidator) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, Never>(wrappingChannelSynchronously: channel)
                }
            }
        counters.withLock { $0.connections += 1 }
        logger.info("Beast input connected to \(host):\(port)")
        var parser = BeastFrameParser()
        let malformedBefore = counters.withLock { $0.malformed }
        try await channel.executeThenClose { inbound, _ in
            for try await buffer in inbound {
                var accepted = 0, rejected = 0, multilaterated = 0
                // The sender's timestamps count its own receiver's samples: they are passed on
                // with the frame (multilateration wants them) but say nothing about when we
                // received it, which is now.
                let arrival = Date().timeIntervalSince1970
                buffer.withUnsafeReadableBytes { bytes in
                    parser.parse(bytes) { received in
                        guard var frame = validator.validate(received.bits, time: arrival) else {
                            rejected += 1
                            return
                        }
                        frame.timestamp = received.timestamp
                        frame.signalLevel = received.signalLevel
                        frame.isMultilaterated = received.isMultilaterated
                        if frame.isMultilaterated { multilaterated += 1 }
                        tracker.accept(frame, at: arrival)
                        accepted += 1
                    }
                }
                let malformed = parser.malformed
                counters.withLock {
                    $0.accepted += accepted
                    $0.rejected += rejected
                    $0.multilaterated += multilaterated
                    $0.malformed = malformedBefore + malformed
                }
            }
        }
    }
}
