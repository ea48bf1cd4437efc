import Pipeline

extension AircraftState {
    /// The state an aggregator's report (an OpenSky state vector) describes, source `opensky`.
    package init(report: StateReport) {
        self.init(icao: report.icao, lastSeen: report.lastSeen, source: .opensky)
        callsign = report.callsign
        category = report.category
        squawk = report.squawk
        position = report.position
        positionTime = report.position == nil ? nil : report.positionTime
        altitudeBaroFt = report.altitudeBaroFt
        altitudeGeoFt = report.altitudeGeoFt
        groundSpeedKt = report.groundSpeedKt
        trackDeg = report.trackDeg
        verticalRateFpm = report.verticalRateFpm
        onGround = report.onGround
    }
}
