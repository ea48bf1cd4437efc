import Tracking
/// A source used while the dongle is missing (the OpenSky Network): it runs until its task is
/// cancelled, feeding the tracker.
public protocol FallbackSource: Sendable {
    /// The name reported as the radar's current source, e.g. "opensky".
    var name: String { get }
    /// Feeds `tracker` until cancelled.
    func run(into tracker: LiveTracker) async throws
}
