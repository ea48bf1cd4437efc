import FeedProtocol

/// One radar picture for one view: the `frame` line of the feed.
public struct RadarFrame: Sendable {
    /// Frame sequence number, one more per frame interval; the same for all clients.
    public var seq: UInt64
    /// Wall-clock time of the frame, seconds since 1970.
    public var time: Double
    /// Name of the current data source.
    public var source: String
    /// The view the frame was rendered for.
    public var view: RadarView
    /// The aircraft that passed the view's filters.
    public var aircraft: [ProjectedAircraft]

    /// A frame from its parts.
    public init(seq: UInt64, time: Double, source: String, view: RadarView, aircraft: [ProjectedAircraft]) {
        self.seq = seq
        self.time = time
        self.source = source
        self.view = view
        self.aircraft = aircraft
    }

    /// The frame as the feed carries it.
    public var feedFrame: FeedFrame {
        FeedFrame(
            seq: Int(truncatingIfNeeded: seq), time: time, source: source, headingDeg: view.headingDeg,
            rangeKm: view.rangeKm, aircraft: aircraft.map(\.feedAircraft))
    }

    /// The frame as one line of JSON, ending in a newline.
    public var jsonLine: String { feedFrame.jsonLine }
}
