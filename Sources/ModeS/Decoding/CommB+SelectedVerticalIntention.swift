import FoundationEssentials

/// BDS 4,0 "selected vertical intention": the altitudes the crew and the flight management
/// system have selected, and the barometric setting.
///
/// | MB bits | field |
/// | --- | --- |
/// | 1 | status of 2–13 |
/// | 2–13 | MCP/FCU selected altitude, 16 ft per unit |
/// | 14 | status of 15–26 |
/// | 15–26 | FMS selected altitude, 16 ft per unit |
/// | 27 | status of 28–39 |
/// | 28–39 | barometric pressure setting minus 800 hPa, 0.1 hPa per unit |
/// | 40–47 | reserved, 0 |
/// | 48 | status of the MCP/FCU mode bits |
/// | 49–51 | VNAV, altitude hold, approach modes |
/// | 52–53 | reserved, 0 |
/// | 54 | status of the target altitude source |
/// | 55–56 | target altitude source |
extension CommB {
    /// BDS 4,0 "selected vertical intention".
    static func selectedVerticalIntention(_ f: MBField) -> ((inout Message) -> Void)? {
        guard f[40, 47] == 0, f[52, 53] == 0,
            case .some(let mcp) = f.statusValue(1, 2, 13),
            case .some(let fms) = f.statusValue(14, 15, 26),
            case .some(let baro) = f.statusValue(27, 28, 39),
            case .some(let modeBits) = f.statusValue(48, 49, 51),
            case .some = f.statusValue(54, 55, 56)
        else { return nil }
        guard mcp != nil || fms != nil || baro != nil else { return nil }
        let mcpFt = mcp.map { Int($0) * 16 }
        let fmsFt = fms.map { Int($0) * 16 }
        let hpa = baro.map { 800 + Double($0) * 0.1 }
        // Selected altitudes are within the flight envelope; settings within real pressures.
        if let mcpFt, !(1...50_000).contains(mcpFt) { return nil }
        if let fmsFt, !(1...50_000).contains(fmsFt) { return nil }
        if let hpa, !(850...1100).contains(hpa) { return nil }
        return { message in
            if let mcpFt {
                message.selectedAltitudeFt = mcpFt
                message.selectedAltitudeSource = "mcp"
                message.fmsSelectedAltitudeFt = fmsFt
            } else if let fmsFt {
                message.selectedAltitudeFt = fmsFt
                message.selectedAltitudeSource = "fms"
            }
            if let modeBits {
                let modes: [(UInt64, NavigationModes)] = [(4, .vnav), (2, .altitudeHold), (1, .approach)]
                message.navModes = modes.reduce(into: NavigationModes()) { if modeBits & $1.0 != 0 { $0.insert($1.1) } }
            }
            if let hpa { message.baroSettingHpa = (hpa * 10).rounded() / 10 }
        }
    }
}
