import FoundationEssentials

/// Airborne position, type codes 9–18 (barometric altitude) and 20–22 (GNSS height).
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–7 | surveillance status (alert, SPI) |
/// | 8 | NIC supplement B (ADS-B version 2; single antenna flag before); IMF in TIS-B/ADS-R |
/// | 9–20 | altitude: 25 ft units with the Q bit, or Gillham code (12 bits) |
/// | 21 | time synchronisation flag |
/// | 22 | CPR format: 0 even, 1 odd |
/// | 23–39 | CPR latitude (17 bits) |
/// | 40–56 | CPR longitude (17 bits) |
extension ExtendedSquitter {
    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeAirbornePosition(
        _ me: (Int, Int) -> UInt64, typeCode: Int,
        into message: inout Message
    ) {
        let altitude = UInt32(me(9, 20))
        if typeCode >= 20 {
            // GNSS height: 12 bits in metres.
            if altitude != 0 { message.altitudeGeoFt = Int((Double(altitude) * 3.28084).rounded()) }
        } else if let feet = AltitudeCode.decode12(altitude) {
            message.altitudeBaroFt = feet
        }
        message.onGround = false
        message.nicSupplementB = me(8, 8) == 1
        message.cpr = CPRFrame(
            isOdd: me(22, 22) == 1, isSurface: false,
            lat: UInt32(me(23, 39)), lon: UInt32(me(40, 56)))
        let nicByType = [
            9: 11, 10: 10, 11: 8, 12: 7, 13: 6, 14: 5, 15: 4, 16: 2, 17: 1, 18: 0,
            20: 11, 21: 10, 22: 0
        ]
        message.nic = nicByType[typeCode]
    }
}
