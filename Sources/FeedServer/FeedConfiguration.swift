import FeedProtocol
import FoundationEssentials
import Logging

/// Everything the feed server needs to know besides where its aircraft come from.
package struct FeedConfiguration: Sendable {
    /// Path of the Unix socket.
    package var socketPath: String
    /// Default view and frame interval.
    package var radar: RadarConfiguration
    /// How long a client may go without draining a frame before it is disconnected, in
    /// seconds; by default five frame intervals, and never less than 3 s, so a client that
    /// is merely busy for a moment is not cut off.
    package var stallTimeout: Double
    /// File mode of the socket: owner and group may connect, others not.
    package var socketMode: UInt32
    /// Most clients served at once; one more is sent an `error` line and closed. Each client
    /// holds a file descriptor, and a flood of idle connections must not use up the ones the
    /// daemon needs for its files and other servers.
    package var maxClients: Int
    /// The per-user directory the socket lives in, created with mode 700 and refused when it
    /// is not the user's own (`PrivateDirectory`); nil when the socket's directory is the
    /// user's choice (`--socket`) or already private (`XDG_RUNTIME_DIR`).
    package var privateDirectory: String?
    /// Where clients arriving, leaving and stalling are logged (at debug, debug and notice).
    package var logger: Logger
    /// Seconds since 1970 now: the date of the magnetic declination in greetings and view
    /// acknowledgements. The wall clock, unless a test fixes it.
    package var wallClock: @Sendable () -> Double

    /// Default of `maxClients`: far more radars than one receiver has viewers, and a small
    /// part of the usual limit of 1,024 descriptors per process.
    package static let defaultMaxClients = 256

    /// A configuration; `stallTimeout` defaults from the frame interval.
    package init(
        socketPath: String = SocketPath.defaultPath(), radar: RadarConfiguration = RadarConfiguration(),
        stallTimeout: Double? = nil, socketMode: UInt32 = 0o660,
        maxClients: Int = FeedConfiguration.defaultMaxClients, privateDirectory: String? = nil,
        logger: Logger = Logger(label: "aviator-adsb.feed"),
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.socketPath = socketPath
        self.radar = radar
        self.stallTimeout = stallTimeout ?? max(3, 5 * radar.frameInterval)
        self.socketMode = socketMode
        self.maxClients = maxClients
        self.privateDirectory = privateDirectory
        self.logger = logger
        self.wallClock = wallClock
    }
}
