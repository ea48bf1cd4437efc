/// One line a feed client reads, by its `type`.
public enum FeedLine: Sendable, Equatable {
    /// The greeting.
    case hello(FeedHello)
    /// A radar frame.
    case frame(FeedFrame)
    /// The acknowledgement of a view command: the heading and range now in force.
    case viewAcknowledged(headingDeg: Double, rangeKm: Double)
    /// A refused command, with the server's message for people.
    case error(String)
    /// A type this client does not know; the protocol says to ignore it.
    case other(type: String)
}
