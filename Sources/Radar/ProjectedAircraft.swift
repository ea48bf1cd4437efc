import Ingest
import ModeS

/// One aircraft as a radar client receives it: what the tracker knows, where it is in the
/// observer's sky, and where and how to draw it on this client's radar.
public struct ProjectedAircraft: Sendable {
    /// What the tracker knows.
    public var state: AircraftState
    /// Seconds since anything was heard from the aircraft.
    public var seenSeconds: Double
    /// Seconds since its position was updated.
    public var positionAgeSeconds: Double?
    /// Whether the position is older than the tracker's staleness limit.
    public var positionIsStale: Bool
    /// Where it is in the sky; nil without an observer.
    public var sky: SkyPlacement?
    /// Where it is on this radar; nil without an observer.
    public var radar: RadarPlacement?
    /// Which way its icon points on this radar; nil when its track is unknown.
    public var rotationDeg: Double?
    /// How large to draw it; nil when its height is unknown.
    public var scale: Double?

    /// Projects a scene aircraft for `view`, with ages measured at `now` (tracker clock).
    public init(_ aircraft: SceneAircraft, view: RadarView, now: Double) {
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

    /// The aircraft as a JSON object, every field present (null when unknown).
    ///
    /// Rounding: positions to 5 decimals (about 1 m), angles to 0.01°, distances to 10 m,
    /// radar coordinates to 1/10,000 of the radius, ages to 0.1 s.
    public var json: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("icao", state.icaoHex)
        w.add("callsign", state.callsign)
        w.add("lat", state.position?.latitude, decimals: 5)
        w.add("lon", state.position?.longitude, decimals: 5)
        w.add("alt_baro_ft", state.altitudeBaroFt)
        w.add("alt_geo_ft", state.altitudeGeoFt)
        w.add("ground_speed_kt", state.groundSpeedKt, decimals: 1)
        w.addAngle("track_deg", state.trackDeg, decimals: 1)
        w.add("vertical_rate_fpm", state.verticalRateFpm)
        w.add("squawk", state.squawk)
        w.add("category", state.category)
        w.add("on_ground", state.onGround)
        w.add("seen_s", seenSeconds, decimals: 1)
        w.add("seen_pos_s", positionAgeSeconds, decimals: 1)
        w.add("stale", positionIsStale)
        w.add("source", state.source.rawValue)
        w.addAngle("azimuth_deg", sky?.azimuthDeg, decimals: 2)
        w.add("elevation_deg", sky?.elevationDeg, decimals: 2)
        w.add("slant_km", sky?.slantKm, decimals: 2)
        w.add("ground_km", sky?.groundKm, decimals: 2)
        w.addAngle("bearing_deg", radar?.bearingDeg, decimals: 2)
        w.add("x", radar?.x, decimals: 4)
        w.add("y", radar?.y, decimals: 4)
        w.addAngle("rotation_deg", rotationDeg, decimals: 1)
        w.add("scale", scale, decimals: 3)
        return w.result
    }
}
