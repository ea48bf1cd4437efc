import ModeS

/// Builds DF17 extended squitters (ADS-B) from the values they carry. Every function returns
/// a complete 112-bit message with a correct CRC.
///
/// ME field bit numbers in the comments are 1-based within the 56-bit ME field, as in
/// DO-260B; ME bit k is message bit 32 + k.
package enum ExtendedSquitterEncoder {
    /// Capability 5: level 2+ transponder, airborne. 4: on the ground.
    package static func capability(onGround: Bool) -> UInt64 { onGround ? 4 : 5 }

    /// A DF17 message around a 56-bit ME field.
    package static func squitter(icao: UInt32, me: UInt64, capability: UInt64 = 5) -> ModeSBits {
        var bits = ModeSBits(bitCount: 112)
        bits.setField(1, 5, 17)
        bits.setField(6, 8, capability & 7)
        bits.setField(9, 32, UInt64(icao & 0xFFFFFF))
        bits.setField(33, 88, me & 0xFF_FFFF_FFFF_FFFF)
        return CRC.withParity(bits)
    }

    /// Type codes 1–4: identification and category. `category` is "A0"..."D7" (set letter A
    /// is type code 4, B 3, C 2, D 1; the digit is the category within the set).
    package static func identification(
        icao: UInt32, callsign: String, category: String,
        capability: UInt64 = 5
    ) -> ModeSBits {
        let (typeCode, number) = categoryCode(category)
        let me = typeCode << 51 | number << 48 | CallsignCode.field(callsign)
        return squitter(icao: icao, me: me, capability: capability)
    }

    /// The type code and category number for a category string such as "A3".
    static func categoryCode(_ category: String) -> (UInt64, UInt64) {
        let utf8 = Array(category.uppercased().utf8)
        guard utf8.count == 2, (UInt8(ascii: "A")...UInt8(ascii: "D")).contains(utf8[0]),
            (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(utf8[1])
        else { return (4, 0) }
        return (UInt64(4 - (utf8[0] - UInt8(ascii: "A"))), UInt64(utf8[1] - UInt8(ascii: "0")))
    }

    /// Type codes 9–18: airborne position with barometric altitude (12-bit field, 25 ft or
    /// Gillham code). A nil altitude sends "no altitude" (all zeros).
    package static func airbornePosition(
        icao: UInt32, latitude: Double, longitude: Double, odd: Bool,
        altitudeFt: Int?, typeCode: UInt64 = 11,
        surveillanceStatus: UInt64 = 0, singleAntenna: Bool = false
    ) -> ModeSBits {
        let alt = altitudeFt.flatMap { AltitudeCode.positionField($0) } ?? 0
        return position(
            icao: icao, typeCode: typeCode, latitude: latitude, longitude: longitude,
            odd: odd, header: (surveillanceStatus & 3) << 1 | (singleAntenna ? 1 : 0),
            altitudeBits: alt)
    }

    /// Type codes 20–22: airborne position with GNSS height (HAE). The 12-bit field holds the
    /// height in metres, unsigned.
    package static func gnssPosition(
        icao: UInt32, latitude: Double, longitude: Double, odd: Bool,
        heightFt: Int, typeCode: UInt64 = 20
    ) -> ModeSBits {
        let metres = min(max((Double(heightFt) * 0.3048).rounded(), 0), 4095)
        return position(
            icao: icao, typeCode: typeCode, latitude: latitude, longitude: longitude,
            odd: odd, header: 0, altitudeBits: UInt64(metres))
    }

    private static func position(
        icao: UInt32, typeCode: UInt64, latitude: Double, longitude: Double,
        odd: Bool, header: UInt64, altitudeBits: UInt64
    ) -> ModeSBits {
        let cpr = CPREncoder.encode(latitude: latitude, longitude: longitude, odd: odd)
        // TC(5) SS(2) NIC-B(1) ALT(12) T(1) F(1) LAT(17) LON(17)
        let me =
            typeCode << 51 | (header & 7) << 48 | altitudeBits << 36 | (odd ? 1 : 0) << 34
            | cpr.lat << 17 | cpr.lon
        return squitter(icao: icao, me: me, capability: 5)
    }

    /// Type codes 5–8: surface position, with ground movement (quantised as the movement
    /// table requires) and ground track in 360/128° steps.
    package static func surfacePosition(
        icao: UInt32, latitude: Double, longitude: Double, odd: Bool,
        groundSpeedKt: Double?, trackDeg: Double?,
        typeCode: UInt64 = 6
    ) -> ModeSBits {
        let cpr = CPREncoder.encode(latitude: latitude, longitude: longitude, odd: odd, surface: true)
        let movement = groundSpeedKt.map(movementCode) ?? 0
        var trackBits: UInt64 = 0
        if let trackDeg {
            let steps = (normalized(trackDeg) * 128 / 360).rounded()
            trackBits = 1 << 7 | (UInt64(steps) & 0x7F)
        }
        // TC(5) MOV(7) S(1) TRK(7) T(1) F(1) LAT(17) LON(17)
        let me =
            typeCode << 51 | movement << 44 | trackBits << 36 | (odd ? 1 : 0) << 34
            | cpr.lat << 17 | cpr.lon
        return squitter(icao: icao, me: me, capability: 4)
    }

    /// The 7-bit surface movement code for a ground speed: a non-linear scale, fine at
    /// taxi speeds and coarse at take-off speeds. Speeds fall into the bin whose lower bound
    /// they reach (1 = stopped, 124 = 175 kt or more).
    package static func movementCode(_ speedKt: Double) -> UInt64 {
        let v = max(speedKt, 0)
        if v < 0.125 { return 1 }
        // (first code, lower bound of its bin, step) for each linear segment of the table.
        let segments: [(UInt64, Double, Double, Double)] = [
            (2, 0.125, 0.125, 1), (9, 1, 0.25, 2), (13, 2, 0.5, 15),
            (39, 15, 1, 70), (94, 70, 2, 100), (109, 100, 5, 175)
        ]
        for (code, low, step, high) in segments where v < high {
            return code + UInt64(((v - low) / step).rounded(.down))
        }
        return 124
    }

    /// Type code 19, subtypes 1 (subsonic) and 2 (supersonic, 4 kt units): velocity over
    /// ground as east/west and north/south components, vertical rate in 64 ft/min steps,
    /// and the GNSS-minus-baro altitude difference in 25 ft steps.
    package static func groundVelocity(
        icao: UInt32, groundSpeedKt: Double, trackDeg: Double,
        verticalRateFpm: Int?, geoMinusBaroFt: Int?,
        verticalRateFromGNSS: Bool = true
    ) -> ModeSBits {
        let angle = DeterministicMath.radians(trackDeg)
        let (s, c) = DeterministicMath.sinCos(angle)
        let east = groundSpeedKt * s
        let north = groundSpeedKt * c
        let supersonic = max(abs(east), abs(north)) > 1021
        let unit = supersonic ? 4.0 : 1.0
        func component(_ value: Double) -> (UInt64, UInt64) {
            let magnitude = min((abs(value) / unit).rounded(), 1022)
            let negative: UInt64 = value < 0 && magnitude > 0 ? 1 : 0
            return (negative, UInt64(magnitude) + 1)
        }
        let (westward, ew) = component(east)
        let (southward, ns) = component(north)
        // ST(3) IC(1) IFR(1) NUCr(3) | S-EW(1) V-EW(10) S-NS(1) V-NS(10)
        let subtype: UInt64 = supersonic ? 2 : 1
        let me =
            19 << 51 | subtype << 48 | 1 << 43 | westward << 42 | ew << 32 | southward << 31 | ns << 21
            | verticalAndDifference(verticalRateFpm, geoMinusBaroFt, fromGNSS: verticalRateFromGNSS)
        return squitter(icao: icao, me: me, capability: 5)
    }

    /// Type code 19, subtypes 3 and 4: airspeed (indicated or true) and magnetic heading,
    /// for aircraft without a GNSS velocity.
    package static func airspeedVelocity(
        icao: UInt32, airspeedKt: Int, trueAirspeed: Bool,
        headingDeg: Double?, verticalRateFpm: Int?,
        geoMinusBaroFt: Int?
    ) -> ModeSBits {
        let supersonic = airspeedKt > 1021
        let unit = supersonic ? 4 : 1
        let speed = UInt64(min((airspeedKt + unit / 2) / unit, 1022) + 1)
        var heading: UInt64 = 0
        if let headingDeg {
            heading = 1 << 10 | UInt64((normalized(headingDeg) * 1024 / 360).rounded()) & 0x3FF
        }
        let subtype: UInt64 = supersonic ? 4 : 3
        // ST(3) IC(1) IFR(1) NUCr(3) | SH(1) HDG(10) T(1) AS(10)
        let me =
            19 << 51 | subtype << 48 | 1 << 43 | heading << 32 | (trueAirspeed ? 1 : 0) << 31
            | speed << 21 | verticalAndDifference(verticalRateFpm, geoMinusBaroFt, fromGNSS: false)
        return squitter(icao: icao, me: me, capability: 5)
    }

    /// ME bits 36–56 of a velocity message: VrSrc(1) S-Vr(1) Vr(9) reserved(2) S-Dif(1) Dif(7).
    private static func verticalAndDifference(_ rate: Int?, _ difference: Int?, fromGNSS: Bool) -> UInt64 {
        var value: UInt64 = (fromGNSS ? 0 : 1) << 20
        if let rate {
            let steps = min((Double(abs(rate)) / 64).rounded(), 510)
            value |= (rate < 0 && steps > 0 ? 1 : 0) << 19 | (UInt64(steps) + 1) << 10
        }
        if let difference {
            let steps = min((Double(abs(difference)) / 25).rounded(), 126)
            value |= (difference < 0 && steps > 0 ? 1 : 0) << 7 | (UInt64(steps) + 1)
        }
        return value
    }

    /// Type code 28, subtype 1: emergency/priority status (0 none, 1 general, ...) and the
    /// Mode A code.
    package static func aircraftStatus(
        icao: UInt32, squawk: String, emergency: UInt64 = 0,
        capability: UInt64 = 5
    ) -> ModeSBits {
        let identity = IdentityCode.encode(squawk: squawk).map(UInt64.init) ?? 0
        let me = 28 << 51 | 1 << 48 | (emergency & 7) << 45 | identity << 32
        return squitter(icao: icao, me: me, capability: capability)
    }

    /// Type code 29, subtype 1 (version 2): target state and status: selected altitude
    /// (32 ft steps), barometric setting (0.8 hPa steps above 800 hPa), selected heading
    /// (180/256° steps) and the autopilot mode bits.
    package static func targetState(
        icao: UInt32, selectedAltitudeFt: Int?, baroSettingHPa: Double?,
        selectedHeadingDeg: Double?, autopilot: Bool, vnav: Bool,
        altitudeHold: Bool, approach: Bool, lnav: Bool,
        tcasOperational: Bool = true
    ) -> ModeSBits {
        var me: UInt64 = 29 << 51 | 1 << 49 | 1 << 48  // subtype 1, SIL supplement per sample
        if let alt = selectedAltitudeFt {
            let steps = min(max((Double(alt) / 32).rounded(), 0), 2046)
            me |= (UInt64(steps) + 1) << 36
        }
        if let baro = baroSettingHPa {
            let steps = min(max(((baro - 800) / 0.8).rounded(), 0), 510)
            me |= (UInt64(steps) + 1) << 27
        }
        if let heading = selectedHeadingDeg {
            let steps = UInt64((normalized(heading) * 256 / 180).rounded()) & 0x1FF
            me |= 1 << 26 | steps << 17
        }
        // NACp 9, NIC baro 1, SIL 3, then the mode bits.
        me |= 9 << 13 | 1 << 12 | 3 << 10 | 1 << 9
        func flag(_ on: Bool, _ shift: UInt64) -> UInt64 { on ? 1 << shift : 0 }
        me |=
            flag(autopilot, 8) | flag(vnav, 7) | flag(altitudeHold, 6) | flag(approach, 4)
            | flag(tcasOperational, 3) | flag(lnav, 2)
        return squitter(icao: icao, me: me, capability: 5)
    }

    /// Type code 31: operational status (subtype 0 airborne, 1 surface), ADS-B version 2.
    package static func operationalStatus(icao: UInt32, onGround: Bool, version: UInt64 = 2) -> ModeSBits {
        var me: UInt64 = 31 << 51 | (onGround ? 1 : 0) << 48
        // Capability class: TCAS operational (airborne), 1090ES IN; operational mode zero.
        me |= onGround ? 0x0010 << 32 : 0x2010 << 32
        // Version, NIC supplement A, NACp 9, GVA 2 (airborne), SIL 3, NIC baro, HRD, SIL supplement.
        me |= (version & 7) << 13 | 9 << 8 | (onGround ? 0 : 2) << 6 | 3 << 4 | 1 << 3
        return squitter(icao: icao, me: me, capability: capability(onGround: onGround))
    }

    /// An angle in [0, 360).
    static func normalized(_ degrees: Double) -> Double {
        let value = degrees - 360 * (degrees / 360).rounded(.down)
        return value >= 360 ? 0 : value
    }
}
