import FeedProtocol
import Identity
import ModeS
import Tracking

/// How a tracked aircraft becomes the feed's aircraft: the one place each wire field is
/// filled from the tracker, and the one place it is placed in an observer's sky. A radar
/// frame's aircraft then only gets its position on the client's radar (`RadarView.show`).
extension FeedAircraft {
    /// What the tracker knows of `state`, with ages measured at `now` (tracker clock), for no
    /// observer: the projection fields stay unknown (see `trackedJSON`).
    package init(tracked state: AircraftState, now: Double) {
        self.init(icao: state.icaoHex)
        callsign = state.callsign
        latitude = state.position?.latitude
        longitude = state.position?.longitude
        altitudeBaroFt = state.altitudeBaroFt.map(Double.init)
        altitudeGeoFt = state.altitudeGeoFt.map(Double.init)
        groundSpeedKt = state.groundSpeedKt
        trackDeg = state.trackDeg
        verticalRateFpm = state.verticalRateFpm.map(Double.init)
        squawk = state.squawk
        category = state.category
        onGround = state.onGround
        seenSeconds = max(0, now - state.lastSeen)
        positionAgeSeconds = state.positionTime.map { max(0, now - $0) }
        stale = state.positionIsStale(at: now)
        source = state.source.rawValue
        route = state.route.map { route in
            FeedRoute(
                origin: FeedAirport(route.origin), destination: FeedAirport(route.destination),
                stops: route.stops.map(FeedAirport.init))
        }
        identity = state.identity.map(FeedIdentity.init)
    }

    /// The height the radar uses, in metres: geometric (GNSS) if known, else barometric, as
    /// `AircraftHeight` takes it from the tracker; nil when neither is known.
    package var heightMetres: Double? {
        (altitudeGeoFt ?? altitudeBaroFt).map { $0 * AircraftHeight.metresPerFoot }
    }

    /// How large to draw it (`IconScale`); an aircraft on the ground without a reported
    /// altitude is at the bottom of the scale, one of unknown height has no scale.
    package var iconScale: Double? {
        (heightMetres ?? (onGround == true ? 0 : nil)).map { IconScale.scale(heightMetres: $0) }
    }

    /// Places the aircraft in the sky of `projection`'s observer (azimuth, elevation,
    /// distances); without a projection, or without a position, those stay unknown.
    package mutating func place(in projection: SkyProjection?) {
        guard let projection, let latitude, let longitude else {
            azimuthDeg = nil
            elevationDeg = nil
            slantKm = nil
            groundKm = nil
            return
        }
        let sky = projection.place(latitude: latitude, longitude: longitude, heightMetres: heightMetres)
        azimuthDeg = sky.azimuthDeg
        elevationDeg = sky.elevationDeg
        slantKm = sky.slantKm
        groundKm = sky.groundKm
    }
}

extension FeedIdentity {
    /// The feed's form of an aircraft's identity.
    init(_ identity: AircraftIdentity) {
        self.init(
            registration: identity.registration, typeCode: identity.typeCode,
            typeDescription: identity.typeDescription, aircraftClass: identity.aircraftClass?.rawValue,
            operatorName: identity.operatorName, year: identity.year, country: identity.country,
            military: identity.military)
    }
}

extension FeedAirport {
    /// The feed's form of a route's airport.
    init(_ airport: FlightRoute.Airport) {
        self.init(
            icao: airport.icao, iata: airport.iata, name: airport.name, latitude: airport.latitude,
            longitude: airport.longitude)
    }
}
