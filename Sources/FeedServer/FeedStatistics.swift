/// Counters of the feed server, for logs and tests.
public struct FeedStatistics: Sendable, Equatable {
    /// Clients connected now.
    public var clients = 0
    /// Clients accepted since the start.
    public var clientsAccepted: UInt64 = 0
    /// Frames built (one per interval).
    public var frames: UInt64 = 0
    /// Frame lines fully handed to client sockets.
    public var framesWritten: UInt64 = 0
    /// Frame lines replaced by a newer one before a slow client took them.
    public var framesDropped: UInt64 = 0
    /// Clients disconnected because they stopped reading.
    public var clientsStalled: UInt64 = 0
    /// Clients refused because `maxClients` were already connected.
    public var clientsRefused: UInt64 = 0
    /// Times accepting paused because the process had no file descriptor left.
    public var acceptsPaused: UInt64 = 0
    /// Commands answered with an error.
    public var commandsRejected: UInt64 = 0

    /// All zero.
    public init() {}
}
