import Foundation

/// Decodes the 56-bit ME field of ADS-B extended squitters (DF17, and DF18 with an ADS-B
/// control field): identification, positions, velocity, status and target state.
///
/// ME bits are numbered 1–56 as in the ADS-B tables; ME bit n is message bit n + 32.
enum ExtendedSquitter {
    /// The 64 characters of the 6-bit callsign alphabet ('#' marks unused codes).
    static let alphabet: [Character] = Array("#ABCDEFGHIJKLMNOPQRSTUVWXYZ##### ###############0123456789######")

    /// Fills `message` with what the ME field of `bits` carries.
    static func decode(_ bits: ModeSBits, into message: inout Message) {
        func me(_ first: Int, _ last: Int) -> UInt64 { bits.field(first + 32, last + 32) }
        let tc = Int(me(1, 5))
        message.typeCode = tc
        switch tc {
        case 1...4:
            decodeIdentification(me, typeCode: tc, into: &message)
        case 5...8:
            decodeSurfacePosition(me, typeCode: tc, into: &message)
        case 9...18, 20...22:
            decodeAirbornePosition(me, typeCode: tc, into: &message)
        case 19:
            decodeVelocity(me, into: &message)
        case 28:
            if me(6, 8) == 1 {
                message.emergency = Int(me(9, 11))
                message.squawk = IdentityCode.squawk(UInt32(me(12, 24)))
            }
        case 29:
            decodeTargetState(me, into: &message)
        case 31:
            decodeOperationalStatus(me, into: &message)
        default:
            break
        }
    }

    /// Callsign characters from eight 6-bit codes; nil if any code is outside the alphabet.
    static func callsign(_ field: UInt64) -> String? {
        var characters = [Character]()
        for index in 0..<8 {
            let code = Int((field >> UInt64(42 - 6 * index)) & 0x3F)
            let character = alphabet[code]
            if character == "#" { return nil }
            characters.append(character)
        }
        let text = String(characters)
        let trimmed = text.reversed().drop { $0 == " " }.reversed()
        return String(trimmed)
    }

    private static func decodeIdentification(_ me: (Int, Int) -> UInt64, typeCode: Int,
                                             into message: inout Message) {
        let set = ["D", "C", "B", "A"][typeCode - 1]
        message.category = "\(set)\(me(6, 8))"
        message.callsign = callsign(me(9, 56))
    }

    private static func decodeSurfacePosition(_ me: (Int, Int) -> UInt64, typeCode: Int,
                                              into message: inout Message) {
        message.onGround = true
        message.groundSpeedKt = groundMovement(Int(me(6, 12)))
        if me(13, 13) == 1 { message.trackDeg = Double(me(14, 20)) * 360 / 128 }
        message.cpr = CPRFrame(isOdd: me(22, 22) == 1, isSurface: true,
                               lat: UInt32(me(23, 39)), lon: UInt32(me(40, 56)))
        message.nic = [11, 10, 8, 0][typeCode - 5]
    }

    private static func decodeAirbornePosition(_ me: (Int, Int) -> UInt64, typeCode: Int,
                                               into message: inout Message) {
        let altitude = UInt32(me(9, 20))
        if typeCode >= 20 {
            // GNSS height: 12 bits in metres.
            if altitude != 0 { message.altitudeGeoFt = Int((Double(altitude) * 3.28084).rounded()) }
        } else if let feet = AltitudeCode.decode12(altitude) {
            message.altitudeBaroFt = feet
        }
        message.onGround = false
        message.cpr = CPRFrame(isOdd: me(22, 22) == 1, isSurface: false,
                               lat: UInt32(me(23, 39)), lon: UInt32(me(40, 56)))
        let nicByType = [9: 11, 10: 10, 11: 8, 12: 7, 13: 6, 14: 5, 15: 4, 16: 2, 17: 1, 18: 0,
                         20: 11, 21: 10, 22: 0]
        message.nic = nicByType[typeCode]
    }

    /// Ground speed in knots from the surface movement code (a piecewise-linear scale that is
    /// finest at taxi speeds), nil when not available or reserved.
    static func groundMovement(_ code: Int) -> Double? {
        switch code {
        case 1: return 0
        case 2...8: return Double(code - 1) * 0.125
        case 9...12: return 1 + Double(code - 9) * 0.25
        case 13...38: return 2 + Double(code - 13) * 0.5
        case 39...93: return 15 + Double(code - 39)
        case 94...108: return 70 + Double(code - 94) * 2
        case 109...123: return 100 + Double(code - 109) * 5
        case 124: return 175
        default: return nil
        }
    }

    private static func decodeVelocity(_ me: (Int, Int) -> UInt64, into message: inout Message) {
        let subtype = Int(me(6, 8))
        guard (1...4).contains(subtype) else { return }
        message.velocitySubtype = subtype
        // Subtypes 2 and 4 are the supersonic variants: same layout, four times the unit.
        let factor = subtype == 2 || subtype == 4 ? 4.0 : 1.0
        if subtype <= 2 {
            let eastWest = Int(me(15, 24)), northSouth = Int(me(26, 35))
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

    private static func decodeTargetState(_ me: (Int, Int) -> UInt64, into message: inout Message) {
        // Only subtype 1 (ADS-B version 2) has a layout common enough to decode safely.
        guard me(6, 7) == 1 else { return }
        let selected = Int(me(10, 20))
        if selected != 0 {
            message.selectedAltitudeFt = (selected - 1) * 32
            message.selectedAltitudeSource = me(9, 9) == 1 ? "fms" : "mcp"
        }
        let baro = Int(me(21, 29))
        if baro != 0 { message.baroSettingHpa = 800 + Double(baro - 1) * 0.8 }
        if me(30, 30) == 1 { message.selectedHeadingDeg = Double(me(31, 39)) * 180 / 256 }
        message.nacP = Int(me(40, 43))
        message.sil = Int(me(45, 46))
        if me(47, 47) == 1 { message.autopilot = me(48, 48) == 1 }
    }

    private static func decodeOperationalStatus(_ me: (Int, Int) -> UInt64, into message: inout Message) {
        let subtype = me(6, 8)
        guard subtype <= 1 else { return }
        message.adsbVersion = Int(me(41, 43))
        if message.adsbVersion ?? 0 >= 1 {
            message.nacP = Int(me(45, 48))
            message.sil = Int(me(51, 52))
        }
    }
}

/// The direction of the vector (east, north) in degrees clockwise from north, in (−180, 180].
func atan2Degrees(_ east: Double, _ north: Double) -> Double {
    atan2(east, north) * 180 / Double.pi
}
