/// One radar frame from the feed, as a client reads it: the view it was drawn for and the
/// aircraft in it.
public struct FeedFrame: Sendable, Equatable {
    /// Frame number; the same for every client of the daemon.
    public var seq: Int
    /// When the frame was made, seconds since 1970.
    public var time: Double
    /// The daemon's current data source, e.g. "rtl-sdr" or "replay".
    public var source: String
    /// The heading the frame was drawn for, degrees from true north.
    public var headingDeg: Double
    /// The radar radius the frame was drawn for, km; x and y are fractions of it.
    public var rangeKm: Double
    /// The aircraft in view.
    public var aircraft: [FeedAircraft]

    /// A frame with every field given.
    public init(seq: Int, time: Double, source: String, headingDeg: Double, rangeKm: Double, aircraft: [FeedAircraft]) {
        self.seq = seq
        self.time = time
        self.source = source
        self.headingDeg = headingDeg
        self.rangeKm = rangeKm
        self.aircraft = aircraft
    }

    /// The aircraft nearest first; those without a distance come last, by address.
    public var byDistance: [FeedAircraft] {
        aircraft.sorted { a, b in
            switch (a.groundKm, b.groundKm) {
            case let (da?, db?): return da != db ? da < db : a.icao < b.icao
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.icao < b.icao
            }
        }
    }
}
