/// What a Beast input (a connection we make, or a listener taking connections) counted.
public struct BeastCounters: Sendable, Equatable {
    /// Frames that passed the validator.
    public var accepted = 0
    /// Frames the validator rejected.
    public var rejected = 0
    /// Frames the parser dropped as malformed.
    public var malformed = 0
    /// Accepted frames that were multilateration results.
    public var multilaterated = 0
    /// Connections made or taken.
    public var connections = 0
    /// Connections turned away because the listener had as many as it takes.
    public var refused = 0
    /// Times the listener paused accepting because too few file descriptors were free.
    public var acceptsPaused = 0

    /// Nothing counted.
    public init() {}

    /// The counters for the statistics line, e.g. "beast-in 10.0.0.2:30005: 120 frames, …".
    public func summary(label: String) -> String {
        "\(label): \(accepted) frames, \(multilaterated) of them mlat, \(rejected) failed the parity check, "
            + "\(malformed) malformed, \(connections) connections" + (refused > 0 ? ", \(refused) refused" : "")
            + (acceptsPaused > 0 ? ", accepting paused \(acceptsPaused) \(acceptsPaused == 1 ? "time" : "times")" : "")
    }
}
