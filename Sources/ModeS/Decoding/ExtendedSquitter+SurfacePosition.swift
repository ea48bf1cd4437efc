import FoundationEssentials

/// Surface position, type codes 5–8 (the type code also gives the navigation accuracy).
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–12 | movement: ground speed on a piecewise scale, finest at taxi speeds |
/// | 13 | ground track status (1: track valid) |
/// | 14–20 | ground track, 360/128 degrees per unit |
/// | 21 | time synchronisation flag |
/// | 22 | CPR format: 0 even, 1 odd |
/// | 23–39 | CPR latitude (17 bits) |
/// | 40–56 | CPR longitude (17 bits) |
extension ExtendedSquitter {
    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeSurfacePosition(
        _ me: (Int, Int) -> UInt64, typeCode: Int,
        into message: inout Message
    ) {
        message.onGround = true
        message.groundSpeedKt = groundMovement(Int(me(6, 12)))
        if me(13, 13) == 1 { message.trackDeg = Double(me(14, 20)) * 360 / 128 }
        message.cpr = CPRFrame(
            isOdd: me(22, 22) == 1, isSurface: true,
            lat: UInt32(me(23, 39)), lon: UInt32(me(40, 56)))
        message.nic = [11, 10, 8, 0][typeCode - 5]
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
}
