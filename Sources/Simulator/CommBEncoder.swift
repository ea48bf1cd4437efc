/// Comm-B register contents (the MB field of DF20/21) for the registers a sky commonly
/// carries. MB bit k (1-based) is the k-th of 56 bits.
package enum CommBEncoder {
    /// BDS 2,0: aircraft identification (the register number 0x20, then eight characters).
    package static func identification(callsign: String) -> UInt64 {
        0x20 << 48 | CallsignCode.field(callsign)
    }

    /// BDS 4,0: selected vertical intention: MCP/FCU selected altitude and FMS altitude in
    /// 16 ft steps, barometric setting in 0.1 hPa above 800 hPa.
    package static func selectedVerticalIntention(
        mcpAltitudeFt: Int, fmsAltitudeFt: Int,
        baroSettingHPa: Double
    ) -> UInt64 {
        let mcp = UInt64(max(0, min(4095, (mcpAltitudeFt + 8) / 16)))
        let fms = UInt64(max(0, min(4095, (fmsAltitudeFt + 8) / 16)))
        let baro = UInt64(max(0, min(4095, ((baroSettingHPa - 800) * 10).rounded())))
        // status+MCP(13) status+FMS(13) status+baro(13) reserved(8) mode bits(4) res(2) source(3)
        return 1 << 55 | mcp << 43 | 1 << 42 | fms << 30 | 1 << 29 | baro << 17
    }

    /// BDS 5,0: track and turn report: roll angle, true track, ground speed, track rate and
    /// true airspeed.
    package static func trackAndTurn(
        rollDeg: Double, trackDeg: Double, groundSpeedKt: Double,
        trackRateDegPerS: Double, trueAirspeedKt: Double
    ) -> UInt64 {
        func signed(_ value: Double, _ lsb: Double, _ width: Int) -> UInt64 {
            let steps = Int((value / lsb).rounded())
            let limit = 1 << width
            let clamped = max(-limit, min(limit - 1, steps))
            return UInt64(clamped < 0 ? clamped + 2 * limit : clamped) & UInt64(2 * limit - 1)
        }
        var track = ExtendedSquitterEncoder.normalized(trackDeg)
        if track >= 180 { track -= 360 }
        let roll = signed(rollDeg, 45.0 / 256, 9)
        let trk = signed(track, 90.0 / 512, 10)
        let gs = UInt64(max(0, min(1023, (groundSpeedKt / 2).rounded())))
        let rate = signed(trackRateDegPerS, 8.0 / 256, 9)
        let tas = UInt64(max(0, min(1023, (trueAirspeedKt / 2).rounded())))
        // status+sign+roll(11) status+sign+track(12) status+GS(11) status+sign+rate(11) status+TAS(11)
        return 1 << 55 | roll << 45 | 1 << 44 | trk << 33 | 1 << 32 | gs << 22
            | 1 << 21 | rate << 11 | 1 << 10 | tas
    }
}
