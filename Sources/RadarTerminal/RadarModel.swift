import FeedProtocol

/// Everything the radar screen shows that comes from outside the keyboard: the latest frame,
/// whether the daemon is there, and what it last complained about.
public struct RadarModel: Sendable, Equatable {
    /// The latest frame, nil before the first one.
    public var frame: FeedFrame?
    /// Whether the feed socket is connected.
    public var connected: Bool
    /// The socket the radar reads, shown while waiting for the daemon.
    public var socketPath: String
    /// Why the last connection attempt failed or ended, shown while waiting.
    public var problem: String?
    /// The last `error` reply of the daemon to a command, shown in the status line.
    public var serverError: String?

    /// A model with nothing received yet.
    public init(
        frame: FeedFrame? = nil, connected: Bool = false, socketPath: String = "", problem: String? = nil,
        serverError: String? = nil
    ) {
        self.frame = frame
        self.connected = connected
        self.socketPath = socketPath
        self.problem = problem
        self.serverError = serverError
    }
}
