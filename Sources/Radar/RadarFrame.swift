import ModeS

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

    /// The frame as one line of JSON, ending in a newline.
    public var jsonLine: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "frame")
        w.add("seq", seq)
        w.add("time", time, decimals: 3)
        w.add("source", source)
        w.addAngle("heading_deg", view.headingDeg, decimals: 2)
        w.add("range_km", view.rangeKm, decimals: 3)
        var list = "["
        list.reserveCapacity(aircraft.count * 480 + 2)
        for (index, plane) in aircraft.enumerated() {
            if index > 0 { list += "," }
            list += plane.json
        }
        list += "]"
        w.addRaw("aircraft", list)
        return w.result + "\n"
    }
}
