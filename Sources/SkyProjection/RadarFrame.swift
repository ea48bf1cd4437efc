import FeedProtocol

/// One radar picture for one view: the `frame` line of the feed.
package struct RadarFrame: Sendable {
    /// Frame sequence number, one more per frame interval; the same for all clients.
    package var seq: UInt64
    /// Wall-clock time of the frame, seconds since 1970.
    package var time: Double
    /// Name of the current data source.
    package var source: String
    /// The view the frame was rendered for.
    package var view: RadarView
    /// The aircraft that passed the view's filters.
    package var aircraft: [ProjectedAircraft]

    /// A frame from its parts.
    package init(seq: UInt64, time: Double, source: String, view: RadarView, aircraft: [ProjectedAircraft]) {
        self.seq = seq
        self.time = time
        self.source = source
        self.view = view
        self.aircraft = aircraft
    }

    /// The frame as the feed carries it.
    package var feedFrame: FeedFrame {
        FeedFrame(
            seq: Int(truncatingIfNeeded: seq), time: time, source: source, headingDeg: view.headingDeg,
            rangeKm: view.rangeKm, aircraft: aircraft.map(\.feedAircraft))
    }

    /// The frame as one line of JSON, ending in a newline.
    package var jsonLine: String { feedFrame.jsonLine }
}
