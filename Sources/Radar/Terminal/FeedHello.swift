/// The greeting a client reads on connect: who serves the feed, where the receiver is, and
/// the client's starting view.
public struct FeedHello: Sendable, Equatable {
    /// Protocol version.
    public var version: Int
    /// Receiver latitude in degrees, nil when the daemon has no receiver position.
    public var receiverLatitude: Double?
    /// Receiver longitude in degrees, nil when the daemon has no receiver position.
    public var receiverLongitude: Double?
    /// The daemon's current data source.
    public var source: String
    /// Seconds between frames.
    public var frameIntervalSeconds: Double
    /// The starting heading of this client's view, degrees.
    public var headingDeg: Double
    /// The starting radius of this client's view, km.
    public var rangeKm: Double

    /// A greeting with every field given.
    public init(version: Int, receiverLatitude: Double?, receiverLongitude: Double?, source: String,
                frameIntervalSeconds: Double, headingDeg: Double, rangeKm: Double) {
        self.version = version
        self.receiverLatitude = receiverLatitude
        self.receiverLongitude = receiverLongitude
        self.source = source
        self.frameIntervalSeconds = frameIntervalSeconds
        self.headingDeg = headingDeg
        self.rangeKm = rangeKm
    }
}
