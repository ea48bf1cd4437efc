import FoundationEssentials

/// Target state and status, type code 29, subtype 1 (ADS-B version 2): what the autopilot
/// is set to.
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–7 | subtype |
/// | 8 | SIL supplement |
/// | 9 | selected altitude source (0: MCP/FCU, 1: FMS) |
/// | 10–20 | selected altitude / 32 ft + 1 |
/// | 21–29 | barometric pressure setting: (value − 1) × 0.8 + 800 hPa |
/// | 30 | selected heading status |
/// | 31–39 | selected heading, 180/256 degrees per unit |
/// | 40–43 | navigation accuracy for position (NACp) |
/// | 44 | NIC baro |
/// | 45–46 | source integrity level (SIL) |
/// | 47 | autopilot modes status (1: bits 48–54 valid) |
/// | 48–54 | autopilot engaged, VNAV, altitude hold, IMF, approach, TCAS operational, LNAV |
/// | 55–56 | reserved |
extension ExtendedSquitter {
    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeTargetState(_ me: (Int, Int) -> UInt64, into message: inout Message) {
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
        message.nicBaro = Int(me(44, 44))
        message.sil = Int(me(45, 46))
        if me(47, 47) == 1 {
            message.autopilot = me(48, 48) == 1
            // Bit 51 is the IMF of a rebroadcast, not a mode.
            let modes: [(Int, NavigationModes)] = [
                (48, .autopilot), (49, .vnav), (50, .altitudeHold),
                (52, .approach), (53, .tcas), (54, .lnav)
            ]
            message.navModes = modes.reduce(into: NavigationModes()) { if me($1.0, $1.0) == 1 { $0.insert($1.1) } }
        }
    }
}
