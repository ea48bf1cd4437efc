import ModeS

/// Turns a message kind and an aircraft's true state into the bits the transponder sends.
package enum MessageFactory {
    /// The message `kind` from `track` in `state`.
    package static func message(_ kind: MessageKind, track: AircraftTrack, state: TrueAircraftState) -> ModeSBits {
        let icao = track.icao
        let altitude = Int(state.altitudeBaroFt.rounded())
        switch kind {
        case .airbornePosition(let odd):
            return airbornePosition(odd: odd, track: track, state: state)
        case .surfacePosition(let odd):
            return ExtendedSquitterEncoder.surfacePosition(
                icao: icao, latitude: state.position.latitude, longitude: state.position.longitude, odd: odd,
                groundSpeedKt: state.groundSpeedKt, trackDeg: state.groundSpeedKt > 0 ? state.trackDeg : nil)
        case .velocity:
            return velocity(track: track, state: state)
        case .identification:
            return ExtendedSquitterEncoder.identification(
                icao: icao, callsign: track.callsign, category: track.category,
                capability: ExtendedSquitterEncoder.capability(onGround: state.onGround))
        case .aircraftStatus:
            return ExtendedSquitterEncoder.aircraftStatus(
                icao: icao, squawk: track.squawk,
                capability: ExtendedSquitterEncoder.capability(onGround: state.onGround))
        case .targetState:
            return ExtendedSquitterEncoder.targetState(
                icao: icao, selectedAltitudeFt: selectedAltitude(track, state), baroSettingHPa: 1013.2,
                selectedHeadingDeg: state.trackDeg, autopilot: true, vnav: track.phase != .cruising,
                altitudeHold: track.phase == .cruising, approach: track.phase == .landing, lnav: true)
        case .operationalStatus:
            return ExtendedSquitterEncoder.operationalStatus(icao: icao, onGround: state.onGround)
        case .allCall(let interrogator):
            return ReplyEncoder.allCall(
                icao: icao, capability: ExtendedSquitterEncoder.capability(onGround: state.onGround),
                interrogatorCode: interrogator)
        case .altitudeReply:
            return ReplyEncoder.altitudeReply(
                icao: icao, altitudeFt: altitude, onGround: state.onGround,
                forceGillham: track.gillhamAltitude)
        case .identityReply:
            return ReplyEncoder.identityReply(icao: icao, squawk: track.squawk, onGround: state.onGround)
        case .commBAltitude(let register):
            return ReplyEncoder.commBAltitudeReply(
                icao: icao, altitudeFt: altitude, onGround: state.onGround,
                mb: commB(register, track, state))
        case .commBIdentity(let register):
            return ReplyEncoder.commBIdentityReply(
                icao: icao, squawk: track.squawk, onGround: state.onGround,
                mb: commB(register, track, state))
        }
    }

    /// An airborne position, with the pressure altitude, or with the GNSS height for an
    /// aircraft that reports only those.
    private static func airbornePosition(odd: Bool, track: AircraftTrack, state: TrueAircraftState) -> ModeSBits {
        if track.gnssPositionsOnly {
            return ExtendedSquitterEncoder.gnssPosition(
                icao: track.icao, latitude: state.position.latitude, longitude: state.position.longitude, odd: odd,
                heightFt: Int(state.altitudeGeoFt.rounded()))
        }
        return ExtendedSquitterEncoder.airbornePosition(
            icao: track.icao, latitude: state.position.latitude, longitude: state.position.longitude, odd: odd,
            altitudeFt: Int(state.altitudeBaroFt.rounded()))
    }

    /// An airborne velocity: over the ground, or as an airspeed and heading for an aircraft
    /// that reports those.
    private static func velocity(track: AircraftTrack, state: TrueAircraftState) -> ModeSBits {
        let rate = Int(state.verticalRateFpm.rounded())
        let geoMinusBaro = Int((state.altitudeGeoFt - state.altitudeBaroFt).rounded())
        if track.reportsAirspeed {
            // Indicated airspeed roughly from ground speed (no wind model); heading = track.
            return ExtendedSquitterEncoder.airspeedVelocity(
                icao: track.icao, airspeedKt: Int(state.groundSpeedKt.rounded()), trueAirspeed: true,
                headingDeg: state.trackDeg, verticalRateFpm: rate, geoMinusBaroFt: geoMinusBaro)
        }
        return ExtendedSquitterEncoder.groundVelocity(
            icao: track.icao, groundSpeedKt: state.groundSpeedKt, trackDeg: state.trackDeg,
            verticalRateFpm: rate, geoMinusBaroFt: track.gnssPositionsOnly ? nil : geoMinusBaro)
    }

    /// The altitude the crew has selected: the cruise level, or the next round level.
    static func selectedAltitude(_ track: AircraftTrack, _ state: TrueAircraftState) -> Int {
        switch track.phase {
        case .cruising, .taxiing: return Int((state.altitudeBaroFt / 1000).rounded()) * 1000
        case .climbing: return 30_000
        case .landing: return 3_000
        }
    }

    private static func commB(_ register: Int, _ track: AircraftTrack, _ state: TrueAircraftState) -> UInt64 {
        switch register {
        case 0x40:
            let selected = selectedAltitude(track, state)
            return CommBEncoder.selectedVerticalIntention(
                mcpAltitudeFt: selected, fmsAltitudeFt: selected,
                baroSettingHPa: 1013.2)
        case 0x50:
            return CommBEncoder.trackAndTurn(
                rollDeg: 0, trackDeg: state.trackDeg, groundSpeedKt: state.groundSpeedKt,
                trackRateDegPerS: 0, trueAirspeedKt: state.groundSpeedKt)
        default:
            return CommBEncoder.identification(callsign: track.callsign)
        }
    }
}
