import ModeS
import Support

/// One radar frame as it travels on the feed (the `frame` line): the view it was drawn for
/// and the aircraft in it. The server writes it, clients read it back.
package struct FeedFrame: Sendable, Equatable {
    /// Frame number; the same for every client of the daemon.
    package var seq: Int
    /// When the frame was made, seconds since 1970.
    package var time: Double
    /// The daemon's current data source, e.g. "rtl-sdr" or "replay".
    package var source: String
    /// The heading the frame was drawn for, degrees from true north.
    package var headingDeg: Double
    /// The radar radius the frame was drawn for, km; x and y are fractions of it.
    package var rangeKm: Double
    /// The aircraft in view.
    package var aircraft: [FeedAircraft]

    /// A frame with every field given.
    package init(seq: Int, time: Double, source: String, headingDeg: Double, rangeKm: Double, aircraft: [FeedAircraft])
    {
        self.seq = seq
        self.time = time
        self.source = source
        self.headingDeg = headingDeg
        self.rangeKm = rangeKm
        self.aircraft = aircraft
    }

    /// The aircraft nearest first; those without a distance come last, by address.
    package var byDistance: [FeedAircraft] {
        aircraft.sorted { a, b in
            switch (a.groundKm, b.groundKm) {
            case (let da?, let db?): return da != db ? da < db : a.icao < b.icao
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.icao < b.icao
            }
        }
    }

    /// The frame as one line of JSON, ending in a newline.
    package var jsonLine: String { line(aircraftObjects: aircraft.map(\.json)) }

    /// The frame as one line of JSON with `objects` as its aircraft, in order (each one JSON
    /// object, as `FeedAircraft.json` or `FeedAircraftText` writes it), for a writer that has
    /// them already; the frame's own `aircraft` are not read.
    package func line(aircraftObjects objects: [String]) -> String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "frame")
        w.add("seq", seq)
        w.add("time", time, decimals: 3)
        w.add("source", source)
        w.addAngle("heading_deg", headingDeg, decimals: 2)
        w.add("range_km", rangeKm, decimals: 3)
        var list = "["
        list.reserveCapacity(objects.reduce(2) { $0 + $1.utf8.count + 1 })
        for (index, object) in objects.enumerated() {
            if index > 0 { list += "," }
            list += object
        }
        list += "]"
        w.addRaw("aircraft", list)
        return w.result + "\n"
    }

    /// Reads a frame; a frame without its heading, range or aircraft list is an error,
    /// because a radar drawn from it would be wrong.
    init(_ fields: JSONFields) throws(FeedParseError) {
        guard case .array(let list)? = fields.values["aircraft"] else {
            throw FeedParseError("frame without an \"aircraft\" array")
        }
        var aircraft: [FeedAircraft] = []
        aircraft.reserveCapacity(list.count)
        for item in list {
            guard case .object(let plane) = item else {
                throw FeedParseError("frame aircraft must be objects, got \(item.kindName)")
            }
            aircraft.append(try FeedAircraft(JSONFields(plane, place: "aircraft")))
        }
        self.init(
            seq: try fields.requiredInteger("seq"),
            time: try fields.number("time") ?? 0,
            source: try fields.string("source") ?? "unknown",
            headingDeg: try fields.requiredNumber("heading_deg"),
            rangeKm: try fields.requiredNumber("range_km"),
            aircraft: aircraft)
        // A scope of no size or an astronomical one cannot be drawn: the frame is unreadable.
        if !RadarView.isDistance(rangeKm) {
            throw FeedParseError(
                "frame range_km \(RadarView.show(rangeKm)) is outside \(RadarView.show(RadarView.Limits.minRangeKm))...\(RadarView.show(RadarView.Limits.maxRangeKm))"
            )
        }
    }
}
