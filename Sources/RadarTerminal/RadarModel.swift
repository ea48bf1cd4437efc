import FeedProtocol

/// Everything the radar screen shows that comes from outside the keyboard: the latest frame,
/// whether the daemon is there, and what it last complained about.
package struct RadarModel: Sendable, Equatable {
    /// The latest frame, nil before the first one.
    package var frame: FeedFrame?
    /// Whether the feed socket is connected.
    package var connected: Bool
    /// The socket the radar reads, shown while waiting for the daemon.
    package var socketPath: String
    /// Why the last connection attempt failed or ended, shown while waiting.
    package var problem: String?
    /// The last `error` reply of the daemon to a command, shown in the status line.
    package var serverError: String?

    /// A model with nothing received yet.
    package init(
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
