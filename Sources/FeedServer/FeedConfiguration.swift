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
    /// Where clients arriving, leaving and stalling are logged (at debug, debug and notice).
    public var logger: Logger

    /// A configuration; `stallTimeout` defaults from the frame interval.
    public init(socketPath: String = SocketPath.defaultPath(), radar: RadarConfiguration = RadarConfiguration(),
                stallTimeout: Double? = nil, socketMode: UInt32 = 0o660,
                logger: Logger = Logger(label: "aviator-adsb.feed")) {
        self.socketPath = socketPath
        self.radar = radar
        self.stallTimeout = stallTimeout ?? max(3, 5 * radar.frameInterval)
        self.socketMode = socketMode
        self.logger = logger
    }
}
