import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Airborne velocity, type code 19, subtypes 1–2 (ground speed as east and north components)
/// and 3–4 (heading and airspeed); subtypes 2 and 4 count in units of 4 kt (supersonic).
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–8 | subtype |
/// | 9 | intent change flag; IMF in TIS-B/ADS-R |
/// | 10 | IFR capability |
/// | 11–13 | navigation accuracy for velocity (NACv) |
/// | 14 | subtypes 1–2: east-west direction (1: west); 3–4: heading status |
/// | 15–24 | subtypes 1–2: east-west speed + 1; 3–4: magnetic heading, 360/1024 degrees |
/// | 25 | subtypes 1–2: north-south direction (1: south); 3–4: airspeed type (1: true) |
/// | 26–35 | subtypes 1–2: north-south speed + 1; 3–4: airspeed + 1 |
/// | 36 | vertical rate source (1: barometric, 0: GNSS) |
/// | 37 | vertical rate sign (1: down) |
/// | 38–46 | vertical rate / 64 ft/min + 1 |
/// | 47–48 | reserved |
/// | 49 | sign of GNSS height minus barometric altitude (1: below) |
/// | 50–56 | that difference / 25 ft + 1 |
extension ExtendedSquitter {
    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeVelocity(_ me: (Int, Int) -> UInt64, into message: inout Message) {
        let subtype = Int(me(6, 8))
        guard (1...4).contains(subtype) else { return }
        message.velocitySubtype = subtype
        message.nacV = Int(me(11, 13))
        // Subtypes 2 and 4 are the supersonic variants: same layout, four times the unit.
        let factor = subtype == 2 || subtype == 4 ? 4.0 : 1.0
        if subtype <= 2 {
            let eastWest = Int(me(15, 24))
            let northSouth = Int(me(26, 35))
            if eastWest != 0 && northSouth != 0 {
                let vx = Double(eastWest - 1) * factor * (me(14, 14) == 1 ? -1 : 1)
                let vy = Double(northSouth - 1) * factor * (me(25, 25) == 1 ? -1 : 1)
                message.groundSpeedKt = (vx * vx + vy * vy).squareRoot()
                var track = atan2Degrees(vx, vy)
                if track < 0 { track += 360 }
                message.trackDeg = track
            }
        } else {
            if me(14, 14) == 1 { message.headingDeg = Double(me(15, 24)) * 360 / 1024 }
            let airspeed = Int(me(26, 35))
            if airspeed != 0 {
                message.airspeedKt = Int(Double(airspeed - 1) * factor)
                message.airspeedType = me(25, 25) == 1 ? .tas : .ias
            }
        }
        let rate = Int(me(38, 46))
        if rate != 0 {
            message.verticalRateFpm = (rate - 1) * 64 * (me(37, 37) == 1 ? -1 : 1)
            message.verticalRateSource = me(36, 36) == 1 ? .baro : .gnss
        }
        let difference = Int(me(50, 56))
        if difference != 0 {
            message.geoMinusBaroFt = (difference - 1) * 25 * (me(49, 49) == 1 ? -1 : 1)
        }
    }
}

/// The direction of the vector (east, north) in degrees clockwise from north, in (−180, 180].
func atan2Degrees(_ east: Double, _ north: Double) -> Double {
    atan2(east, north) * 180 / Double.pi
}
