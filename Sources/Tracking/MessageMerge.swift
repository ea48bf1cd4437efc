import ModeS

/// One decoded message merged into an aircraft's state, field by field.
///
/// Each field takes the message's value unless a more direct source set it within `timeout`
/// (see `FieldSources`); the fields that follow from others come after them: the GNSS altitude
/// from the pressure altitude, the vertical rate from the newer of its two kinds, true headings
/// once the aircraft says its headings are true. The state is changed in place: it is a large
/// value, and the tracker merges every message it hears.
struct MessageMerge {
    /// The message, its position resolved.
    let message: Message
    /// The kind of address it was heard from.
    let type: AddressType
    /// When it was received, seconds.
    let time: Double
    /// How long a more direct source keeps its claim on a field, seconds.
    let timeout: Double

    /// Merges every field the message carries into `state`.
    func apply(to state: inout AircraftState) {
        identity(into: &state)
        altitudes(into: &state)
        position(into: &state)
        motion(into: &state)
        airData(into: &state)
        intent(into: &state)
        version(into: &state)
        quality(into: &state)
    }

    /// Whether `field` takes this message's value (when it does, it is stamped with its source).
    private func accepts(_ field: FieldSources.Field, _ state: inout AircraftState) -> Bool {
        state.fieldSources.accept(field, from: type, at: time, timeout: timeout)
    }

    /// Takes `value` into `path` unless a more direct source holds `field`.
    private func take<Value>(
        _ value: Value?, _ field: FieldSources.Field, _ path: WritableKeyPath<AircraftState, Value?>,
        _ state: inout AircraftState
    ) {
        guard let value, accepts(field, &state) else { return }
        state[keyPath: path] = value
    }

    /// Callsign, category, squawk, emergency, the on-ground flag, alert and SPI.
    private func identity(into state: inout AircraftState) {
        if let callsign = message.callsign, !callsign.isEmpty { take(callsign, .callsign, \.callsign, &state) }
        take(message.category, .category, \.category, &state)
        take(message.squawk, .squawk, \.squawk, &state)
        take(message.emergency, .emergency, \.emergency, &state)
        if let onGround = message.onGround { state.onGround = onGround }
        take(message.alert, .alert, \.alert, &state)
        take(message.spi, .spi, \.spi, &state)
    }

    /// The pressure and GNSS altitudes and the difference between them, then the GNSS altitude
    /// derived from the others when that is the newer.
    private func altitudes(into state: inout AircraftState) {
        take(message.altitudeBaroFt, .altitudeBaro, \.altitudeBaroFt, &state)
        take(message.altitudeGeoFt, .altitudeGeom, \.altitudeGeoFt, &state)
        take(message.geoMinusBaroFt, .geomDelta, \.geoMinusBaroFt, &state)
        deriveGeometricAltitude(&state)
    }

    /// Sets the GNSS altitude to the pressure altitude plus the latest difference between the
    /// two (from velocity messages) whenever the pressure altitude is the newer of the two
    /// altitudes, so a climbing aircraft's GNSS altitude follows its pressure altitude
    /// between velocity messages. The difference must itself be recent.
    private func deriveGeometricAltitude(_ state: inout AircraftState) {
        guard let baro = state.altitudeBaroFt, let difference = state.geoMinusBaroFt,
            let baroStamp = state.fieldSources[.altitudeBaro], let differenceStamp = state.fieldSources[.geomDelta],
            time - differenceStamp.time <= timeout,
            baroStamp.time >= state.fieldSources[.altitudeGeom]?.time ?? -.infinity
        else { return }
        state.altitudeGeoFt = baro + difference
        state.fieldSources.stamp(.altitudeGeom, as: baroStamp)
    }

    /// The resolved position, and the integrity (NIC, radius of containment) of a position
    /// frame's type code.
    private func position(into state: inout AircraftState) {
        if let latitude = message.latitude, let longitude = message.longitude, accepts(.position, &state) {
            state.position = GeoPoint(latitude: latitude, longitude: longitude)
            state.positionTime = time
        }
        if message.cpr != nil, let typeCode = message.typeCode,
            let integrity = NavigationIntegrity.of(
                typeCode: typeCode, supplementA: state.nicSupplementA ?? false,
                supplementB: message.nicSupplementB ?? false),
            accepts(.integrity, &state)
        {
            state.nic = integrity.nic
            state.radiusOfContainmentM = integrity.rcMeters
        }
    }

    /// Ground speed, track and the vertical rates; the vertical rate shown is the newer of the
    /// barometric and the GNSS one.
    private func motion(into state: inout AircraftState) {
        take(message.groundSpeedKt, .groundSpeed, \.groundSpeedKt, &state)
        take(message.trackDeg, .track, \.trackDeg, &state)
        if let rate = message.verticalRateFpm {
            if message.verticalRateSource == .gnss {
                take(rate, .geomRate, \.geomRateFpm, &state)
            } else {
                take(rate, .baroRate, \.baroRateFpm, &state)
            }
        }
        take(message.baroVerticalRateFpm, .baroRate, \.baroRateFpm, &state)
        take(message.inertialVerticalRateFpm, .geomRate, \.geomRateFpm, &state)
        let baroIsNewer =
            (state.fieldSources[.baroRate]?.time ?? -.infinity) >= (state.fieldSources[.geomRate]?.time ?? -.infinity)
        state.verticalRateFpm = baroIsNewer ? state.baroRateFpm ?? state.geomRateFpm : state.geomRateFpm
    }

    /// Airspeeds, Mach number, headings, roll and track rate.
    private func airData(into state: inout AircraftState) {
        if let airspeed = message.airspeedKt {
            if message.airspeedType == .tas {
                take(airspeed, .trueAirspeed, \.trueAirspeedKt, &state)
            } else {
                take(airspeed, .indicatedAirspeed, \.indicatedAirspeedKt, &state)
            }
        }
        if let heading = message.headingDeg {
            if state.headingReferenceTrue == true {
                take(heading, .trueHeading, \.trueHeadingDeg, &state)
            } else {
                take(heading, .magneticHeading, \.magneticHeadingDeg, &state)
            }
        }
        take(message.trueAirspeedKt, .trueAirspeed, \.trueAirspeedKt, &state)
        take(message.indicatedAirspeedKt, .indicatedAirspeed, \.indicatedAirspeedKt, &state)
        take(message.mach, .mach, \.mach, &state)
        take(message.magneticHeadingDeg, .magneticHeading, \.magneticHeadingDeg, &state)
        take(message.rollDeg, .roll, \.rollDeg, &state)
        take(message.trackRateDegPerS, .trackRate, \.trackRateDegPerS, &state)
    }

    /// What the autopilot is set to: selected altitudes, pressure setting, heading and modes.
    private func intent(into state: inout AircraftState) {
        if let selected = message.selectedAltitudeFt {
            if message.selectedAltitudeSource == "fms" {
                take(selected, .navAltitudeFMS, \.navAltitudeFMSFt, &state)
            } else {
                take(selected, .navAltitudeMCP, \.navAltitudeMCPFt, &state)
            }
        }
        take(message.fmsSelectedAltitudeFt, .navAltitudeFMS, \.navAltitudeFMSFt, &state)
        take(message.baroSettingHpa, .navQNH, \.navQNHHpa, &state)
        take(message.selectedHeadingDeg, .navHeading, \.navHeadingDeg, &state)
        take(message.navModes, .navModes, \.navModes, &state)
    }

    /// The ADS-B version and what comes with it (NIC supplement A, the heading reference); a
    /// heading taken as magnetic before the aircraft said its headings are true moves over.
    private func version(into state: inout AircraftState) {
        guard message.adsbVersion != nil, accepts(.version, &state) else { return }
        state.adsbVersion = message.adsbVersion
        state.nicSupplementA = message.nicSupplementA ?? state.nicSupplementA
        state.headingReferenceTrue = message.headingReferenceTrue ?? state.headingReferenceTrue
        // A heading the aircraft's ADS-B sent before it said its headings are true.
        if state.headingReferenceTrue == true, let heading = state.magneticHeadingDeg,
            let stamp = state.fieldSources[.magneticHeading], stamp.type != .modeS
        {
            state.trueHeadingDeg = heading
            state.fieldSources.stamp(.trueHeading, as: stamp)
            state.magneticHeadingDeg = nil
            state.fieldSources.clear(.magneticHeading)
        }
    }

    /// The quality indicators: NIC baro, NACp, NACv, SIL, GVA and SDA.
    private func quality(into state: inout AircraftState) {
        take(message.nicBaro, .nicBaro, \.nicBaro, &state)
        take(message.nacP, .nacP, \.nacP, &state)
        take(message.nacV, .nacV, \.nacV, &state)
        if message.sil != nil, accepts(.sil, &state) {
            state.sil = message.sil
            state.silPerSample = message.silPerSample ?? state.silPerSample
        }
        take(message.gva, .gva, \.gva, &state)
        take(message.sda, .sda, \.sda, &state)
    }
}
