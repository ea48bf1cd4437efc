import FeedProtocol
import Tracking

/// The view-independent part of one radar frame: built once per frame interval from a
/// snapshot, then rendered for each distinct client view (heading, range, filters), so the
/// tracker's fields are filled and the geodesy is done once however many clients are
/// connected. Its aircraft are the feed's own (`FeedAircraft`) from the start: a view only
/// filters them and adds their place on its radar.
package struct RadarScene: Sendable {
    /// Frame sequence number, counting up by one per frame interval from 1.
    package var seq: UInt64
    /// Wall-clock time of the frame, seconds since 1970.
    package var time: Double
    /// Name of the current data source.
    package var source: String
    /// The observer, when known.
    package var observer: Observer?
    /// Aircraft that have a position, in the snapshot's order, with their ages at the
    /// snapshot, their icon scale and their place in the observer's sky.
    package var aircraft: [FeedAircraft]

    /// Projects a snapshot. Aircraft without a position cannot be placed and are left out.
    package init(seq: UInt64, time: Double, snapshot: RadarSnapshot) {
        self.init(
            seq: seq, time: time, source: snapshot.source, observer: snapshot.observer,
            aircraft: snapshot.aircraft.compactMap { state in
                state.position == nil ? nil : FeedAircraft(tracked: state, now: snapshot.now)
            })
    }

    /// A scene of aircraft known otherwise than from the tracker (the stored sky of the past),
    /// each sized and placed in `observer`'s sky as a snapshot's are.
    package init(seq: UInt64, time: Double, source: String, observer: Observer?, aircraft: [FeedAircraft]) {
        self.seq = seq
        self.time = time
        self.source = source
        self.observer = observer
        let projection = observer.map(SkyProjection.init(observer:))
        self.aircraft = aircraft.compactMap { plane in
            guard plane.latitude != nil, plane.longitude != nil else { return nil }
            var plane = plane
            plane.scale = plane.iconScale
            plane.place(in: projection)
            return plane
        }
    }

    /// This scene as seen through `view`: the frame line's contents, filtered, with radar
    /// placements. A view with an observer of its own has every aircraft placed again in
    /// that observer's sky.
    package func frame(for view: RadarView) -> FeedFrame {
        var frame = emptyFrame(for: view)
        frame.aircraft = seen(from: view.observer).filter(view.includes).map(view.show)
        return frame
    }

    /// The frame lines of `views`, each `frame(for:)`'s `jsonLine` byte for byte, written
    /// together: when several views look from one place, the part of an aircraft's object
    /// they share is written once for all of them (`FeedAircraftText`), and each view adds
    /// its own fields.
    package func frameLines(for views: Set<RadarView>) -> [RadarView: String] {
        // The scene's own placements serve its observer and views without one of their own.
        func place(of view: RadarView) -> Observer? { view.observer == observer ? nil : view.observer }
        var sharing: [Observer?: Int] = [:]
        for view in views { sharing[place(of: view), default: 0] += 1 }
        var written: [Observer?: (aircraft: [FeedAircraft], texts: [FeedAircraftText]?)] = [:]
        var lines: [RadarView: String] = [:]
        lines.reserveCapacity(views.count)
        for view in views {
            let place = place(of: view)
            let sky =
                written[place]
                ?? {
                    let aircraft = seen(from: place)
                    return (aircraft, sharing[place, default: 0] > 1 ? aircraft.map(FeedAircraftText.init) : nil)
                }()
            written[place] = sky
            var objects: [String] = []
            objects.reserveCapacity(sky.aircraft.count)
            for (index, plane) in sky.aircraft.enumerated() where view.includes(plane) {
                objects.append(sky.texts?[index].json(shown: view.show(plane)) ?? view.show(plane).json)
            }
            lines[view] = emptyFrame(for: view).line(aircraftObjects: objects)
        }
        return lines
    }

    /// The frame for `view` without its aircraft.
    private func emptyFrame(for view: RadarView) -> FeedFrame {
        FeedFrame(
            seq: Int(truncatingIfNeeded: seq), time: time, source: source, headingDeg: view.headingDeg,
            rangeKm: view.rangeKm, aircraft: [])
    }

    /// The aircraft placed in the sky of `other` (the scene's own placements when it is nil
    /// or the scene's observer).
    private func seen(from other: Observer?) -> [FeedAircraft] {
        guard let other, other != observer else { return aircraft }
        let projection = SkyProjection(observer: other)
        return aircraft.map { plane in
            var placed = plane
            placed.place(in: projection)
            return placed
        }
    }
}
