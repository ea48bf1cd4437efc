import FeedProtocol
import History
import ModeS
import SkyProjection

/// The stored sky at a moment of the past as the feed's own frame (`/data/history/sky`), so
/// the app's scope and sky view draw a rewound sky exactly as they draw the live one: the
/// same fields, the same placement in the observer's sky, the same view filter.
enum HistorySky {
    /// The frame's `source`: the rewound sky comes from the history, not a receiver.
    static let source = "history"

    /// The feed's aircraft object for a stored one, its ages measured at `time`.
    static func feedAircraft(_ stored: StoredAircraft, at time: Double) -> FeedAircraft {
        let point = stored.point
        var plane = FeedAircraft(icao: Message.hex(address: point.address & 0xFF_FFFF))
        let visit = stored.sighting
        plane.callsign = visit?.callsign
        plane.category = visit?.category
        plane.latitude = point.latitude
        plane.longitude = point.longitude
        plane.altitudeBaroFt = point.altitudeFt.map(Double.init)
        plane.groundSpeedKt = point.groundSpeedKt
        plane.trackDeg = point.trackDeg
        plane.verticalRateFpm = point.verticalRateFpm.map(Double.init)
        plane.onGround = point.onGround
        plane.positionAgeSeconds = max(0, time - point.time)
        plane.seenSeconds = plane.positionAgeSeconds
        plane.source = source
        if let visit, visit.registration != nil || visit.typeCode != nil || visit.operatorName != nil {
            plane.identity = FeedIdentity(
                registration: visit.registration, typeCode: visit.typeCode, typeDescription: visit.typeDescription,
                aircraftClass: visit.aircraftClass, operatorName: visit.operatorName,
                military: visit.aircraftClass == "military")
        }
        return plane
    }

    /// The frame line of `stored` at `time` seen through `view`, from its observer.
    static func frameLine(_ stored: [StoredAircraft], at time: Double, view: RadarView) -> String {
        let scene = RadarScene(
            seq: UInt64(max(0, time)), time: time, source: source, observer: view.observer,
            aircraft: stored.map { feedAircraft($0, at: time) })
        return scene.frame(for: view).jsonLine
    }
}
