import FeedProtocol
import Identity
import ModeS
import Tracking

/// One aircraft as a radar client receives it: what the tracker knows, where it is in the
/// observer's sky, and where and how to draw it on this client's radar.
package struct ProjectedAircraft: Sendable {
    /// What the tracker knows.
    package var state: AircraftState
    /// Seconds since anything was heard from the aircraft.
    package var seenSeconds: Double
    /// Seconds since its position was updated.
    package var positionAgeSeconds: Double?
    /// Whether the position is older than the tracker's staleness limit.
    package var positionIsStale: Bool
    /// Where it is in the sky; nil without an observer.
    package var sky: SkyPlacement?
    /// Where it is on this radar; nil without an observer.
    package var radar: RadarPlacement?
    /// Which way its icon points on this radar; nil when its track is unknown.
    package var rotationDeg: Double?
    /// How large to draw it; nil when its height is unknown.
    package var scale: Double?

    /// Projects a scene aircraft for `view`, with ages measured at `now` (tracker clock).
    package init(_ aircraft: SceneAircraft, view: RadarView, now: Double) {
        state = aircraft.state
        seenSeconds = max(0, now - state.lastSeen)
        positionAgeSeconds = state.positionTime.map { max(0, now - $0) }
        positionIsStale = state.positionIsStale(at: now)
        sky = aircraft.sky
        radar = aircraft.sky.map(view.place)
        rotationDeg = view.rotation(trackDeg: state.trackDeg)
        // An aircraft on the ground without a reported altitude is at the bottom of the scale.
        let height = AircraftHeight.metres(of: state) ?? (state.onGround == true ? 0 : nil)
        scale = height.map { IconScale.scale(heightMetres: $0) }
    }

    /// The aircraft as the feed carries it.
    package var feedAircraft: FeedAircraft {
        var wire = FeedAircraft(
            icao: state.icaoHex, callsign: state.callsign,
            altitudeBaroFt: state.altitudeBaroFt.map(Double.init),
            altitudeGeoFt: state.altitudeGeoFt.map(Double.init),
            groundSpeedKt: state.groundSpeedKt, onGround: state.onGround, stale: positionIsStale,
            groundKm: sky?.groundKm, bearingDeg: radar?.bearingDeg, x: radar?.x, y: radar?.y,
            rotationDeg: rotationDeg, scale: scale)
        wire.latitude = state.position?.latitude
        wire.longitude = state.position?.longitude
        wire.trackDeg = state.trackDeg
        wire.verticalRateFpm = state.verticalRateFpm.map(Double.init)
        wire.squawk = state.squawk
        wire.category = state.category
        wire.seenSeconds = seenSeconds
        wire.positionAgeSeconds = positionAgeSeconds
        wire.source = state.source.rawValue
        wire.azimuthDeg = sky?.azimuthDeg
        wire.elevationDeg = sky?.elevationDeg
        wire.slantKm = sky?.slantKm
        wire.route = state.route.map { route in
            FeedRoute(origin: FeedAirport(route.origin), destination: FeedAirport(route.destination))
        }
        return wire
    }
}

extension FeedAircraft {
    /// What the tracker knows of `state`, with ages measured at `now` (tracker clock), for no
    /// observer: the projection fields stay unknown (see `trackedJSON`).
    package init(tracked state: AircraftState, now: Double) {
        self = ProjectedAircraft(SceneAircraft(state: state, sky: nil), view: RadarView(), now: now).feedAircraft
    }
}

extension FeedAirport {
    /// The feed's form of a route's airport.
    init(_ airport: FlightRoute.Airport) {
        self.init(icao: airport.icao, iata: airport.iata, name: airport.name)
    }
}
