import FeedProtocol
import Logging

/// Everything the feed server needs to know besides where its aircraft come from.
public struct FeedConfiguration: Sendable {
    /// Path of the Unix socket.
    public var socketPath: String
    /// Default view and frame interval.
    public var radar: RadarConfiguration
    /// How long a client may go without draining a frame before it is disconnected, in
    /// seconds; by default five frame intervals, and never less than 3 s, so a client that
    /// is merely busy for a moment is not cut off.
    public var stallTimeout: Double
    /// File mode of the socket: owner and group may connect, others not.
    public var socketMode: UInt32
    /// Most clients served at once; one more is sent an `error` line and closed. Each client
    /// holds a file descriptor, and a flood of idle connections must not use up the ones the
    /// daemon needs for its files and other servers.
    public var maxClients: Int
    /// The per-user directory the socket lives in, created with mode 700 and refused when it
    /// is not the user's own (`PrivateDirectory`); nil when the socket's directory is the
    /// user's choice (`--socket`) or already private (`XDG_RUNTIME_DIR`).
    public var privateDirectory: String?
    /// Where clients arriving, leaving and stalling are logged (at debug, debug and notice).
    public var logger: Logger

    /// Default of `maxClients`: far more radars than one receiver has viewers, and a small
    /// part of the usual limit of 1,024 descriptors per process.
    public static let defaultMaxClients = 256

    /// A configuration; `stallTimeout` defaults from the frame interval.
    public init(
        socketPath: String = SocketPath.defaultPath(), radar: RadarConfiguration = RadarConfiguration(),
        stallTimeout: Double? = nil, socketMode: UInt32 = 0o660,
        maxClients: Int = FeedConfiguration.defaultMaxClients, privateDirectory: String? = nil,
        logger: Logger = Logger(label: "aviator-adsb.feed")
    ) {
        self.socketPath = socketPath
        self.radar = radar
        self.stallTimeout = stallTimeout ?? max(3, 5 * radar.frameInterval)
        self.socketMode = socketMode
        self.maxClients = maxClients
        self.privateDirectory = privateDirectory
        self.logger = logger
    }
}
