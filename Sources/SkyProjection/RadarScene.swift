import FeedProtocol
import Tracking

/// One aircraft of a scene: its tracked state and where it is in the observer's sky.
package struct SceneAircraft: Sendable {
    /// What the tracker knows.
    package var state: AircraftState
    /// Where it is in the sky; nil when there is no observer.
    package var sky: SkyPlacement?
}

/// The view-independent part of one radar frame: built once per frame interval from a
/// snapshot, then rendered for each distinct client view (heading, range, filters), so the
/// geodesy is done once however many clients are connected.
package struct RadarScene: Sendable {
    /// Frame sequence number, counting up by one per frame interval from 1.
    package var seq: UInt64
    /// Wall-clock time of the frame, seconds since 1970.
    package var time: Double
    /// Name of the current data source.
    package var source: String
    /// The observer, when known.
    package var observer: Observer?
    /// The tracker's clock at the snapshot, for ages.
    package var now: Double
    /// Aircraft that have a position, in the snapshot's order.
    package var aircraft: [SceneAircraft]

    /// Projects a snapshot. Aircraft without a position cannot be placed and are left out.
    package init(seq: UInt64, time: Double, snapshot: RadarSnapshot) {
        self.seq = seq
        self.time = time
        source = snapshot.source
        observer = snapshot.observer
        now = snapshot.now
        let projection = snapshot.observer.map(SkyProjection.init(observer:))
        aircraft = snapshot.aircraft.compactMap { state in
            guard state.position != nil else { return nil }
            return SceneAircraft(state: state, sky: projection?.place(state))
        }
    }

    /// This scene as seen through `view`: filtered, with radar placements. A view with an
    /// observer of its own has every aircraft placed again in that observer's sky.
    package func frame(for view: RadarView) -> RadarFrame {
        let shown = seen(from: view.observer).filter(view.includes).map { ProjectedAircraft($0, view: view, now: now) }
        return RadarFrame(seq: seq, time: time, source: source, view: view, aircraft: shown)
    }

    /// The aircraft placed in the sky of `other` (the scene's own placements when it is nil
    /// or the scene's observer).
    private func seen(from other: Observer?) -> [SceneAircraft] {
        guard let other, other != observer else { return aircraft }
        let projection = SkyProjection(observer: other)
        return aircraft.map { SceneAircraft(state: $0.state, sky: projection.place($0.state)) }
    }
}
