/// What a Beast input (a connection we make, or a listener taking connections) counted.
package struct BeastCounters: Sendable, Equatable {
    /// Frames that passed the validator.
    package var accepted = 0
    /// Frames the validator rejected.
    package var rejected = 0
    /// Frames the parser dropped as malformed.
    package var malformed = 0
    /// Accepted frames that were multilateration results.
    package var multilaterated = 0
    /// Connections made or taken.
    package var connections = 0
    /// Connections turned away because the listener had as many as it takes.
    package var refused = 0
    /// Times the listener paused accepting because too few file descriptors were free.
    package var acceptsPaused = 0

    /// Nothing counted.
    package init() {}

    /// The counters for the statistics line, e.g. "beast-in 10.0.0.2:30005: 120 frames, …".
    package func summary(label: String) -> String {
        "\(label): \(accepted) frames, \(multilaterated) of them mlat, \(rejected) failed the parity check, "
            + "\(malformed) malformed, \(connections) connections" + (refused > 0 ? ", \(refused) refused" : "")
            + (acceptsPaused > 0 ? ", accepting paused \(acceptsPaused) \(acceptsPaused == 1 ? "time" : "times")" : "")
    }
}
