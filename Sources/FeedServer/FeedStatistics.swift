/// Counters of the feed server, for logs and tests.
package struct FeedStatistics: Sendable, Equatable {
    /// Clients connected now.
    package var clients = 0
    /// Clients accepted since the start.
    package var clientsAccepted: UInt64 = 0
    /// Frames built (one per interval).
    package var frames: UInt64 = 0
    /// Frame lines fully handed to client sockets.
    package var framesWritten: UInt64 = 0
    /// Frame lines replaced by a newer one before a slow client took them.
    package var framesDropped: UInt64 = 0
    /// Clients disconnected because they stopped reading.
    package var clientsStalled: UInt64 = 0
    /// Clients refused because `maxClients` were already connected.
    package var clientsRefused: UInt64 = 0
    /// Times accepting paused because the process had no file descriptor left.
    package var acceptsPaused: UInt64 = 0
    /// Commands answered with an error.
    package var commandsRejected: UInt64 = 0

    /// All zero.
    package init() {}
}
