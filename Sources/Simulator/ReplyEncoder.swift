import ModeS

/// Builds the Mode S replies to ground interrogations: DF11 all-call replies (and
/// acquisition squitters), DF4/DF5 surveillance replies and DF20/DF21 Comm-B replies.
/// DF11 carries a real CRC (possibly XORed with the interrogator code); the others overlay
/// the transponder address on the parity, as real replies do.
public enum ReplyEncoder {
    /// DF11: all-call reply. `interrogatorCode` 0 is a spontaneous acquisition squitter;
    /// 1–15 (II) or up to 63 (SI) answers a given interrogator.
    public static func allCall(icao: UInt32, capability: UInt64 = 5, interrogatorCode: UInt32 = 0) -> ModeSBits {
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 11)
        bits.setField(6, 8, capability & 7)
        bits.setField(9, 32, UInt64(icao & 0xFFFFFF))
        return CRC.withParity(bits, overlay: interrogatorCode & 0x7F)
    }

    /// Flight status: 0 airborne, 1 on ground (no alert, no SPI).
    public static func flightStatus(onGround: Bool) -> UInt64 { onGround ? 1 : 0 }

    /// DF4: altitude reply (13-bit AC field, 25 ft or Gillham code).
    public static func altitudeReply(icao: UInt32, altitudeFt: Int?, onGround: Bool,
                                     forceGillham: Bool = false) -> ModeSBits {
        let ac = altitudeFt.flatMap { AltitudeCode.acField($0, forceGillham: forceGillham) } ?? 0
        return surveillance(df: 4, icao: icao, fs: flightStatus(onGround: onGround), field: ac, mb: nil)
    }

    /// DF5: identity reply (13-bit ID field, the squawk).
    public static func identityReply(icao: UInt32, squawk: String, onGround: Bool) -> ModeSBits {
        let id = IdentityCode.field(squawk: squawk) ?? 0
        return surveillance(df: 5, icao: icao, fs: flightStatus(onGround: onGround), field: id, mb: nil)
    }

    /// DF20: Comm-B altitude reply with a 56-bit MB field (see `CommB`).
    public static func commBAltitudeReply(icao: UInt32, altitudeFt: Int?, onGround: Bool, mb: UInt64) -> ModeSBits {
        let ac = altitudeFt.flatMap { AltitudeCode.acField($0) } ?? 0
        return surveillance(df: 20, icao: icao, fs: flightStatus(onGround: onGround), field: ac, mb: mb)
    }

    /// DF21: Comm-B identity reply with a 56-bit MB field.
    public static func commBIdentityReply(icao: UInt32, squawk: String, onGround: Bool, mb: UInt64) -> ModeSBits {
        let id = IdentityCode.field(squawk: squawk) ?? 0
        return surveillance(df: 21, icao: icao, fs: flightStatus(onGround: onGround), field: id, mb: mb)
    }

    /// DF(5) FS(3) DR(5) UM(6) AC-or-ID(13) [MB(56)] AP(24).
    private static func surveillance(df: UInt64, icao: UInt32, fs: UInt64, field: UInt64, mb: UInt64?) -> ModeSBits {
        var bits = ModeSBits(bitCount: mb == nil ? 56 : 112)
        bits.setField(1, 5, df)
        bits.setField(6, 8, fs)
        bits.setField(20, 32, field & 0x1FFF)
        if let mb { bits.setField(33, 88, mb & 0xFF_FFFF_FFFF_FFFF) }
        return CRC.withParity(bits, overlay: icao)
    }
}

/// Comm-B register contents (the MB field of DF20/21) for the registers a sky commonly
/// carries. MB bit k (1-based) is the k-th of 56 bits.
public enum CommB {
    /// BDS 2,0: aircraft identification (the register number 0x20, then eight characters).
    public static func identification(callsign: String) -> UInt64 {
        0x20 << 48 | CallsignCode.field(callsign)
    }

    /// BDS 4,0: selected vertical intention: MCP/FCU selected altitude and FMS altitude in
    /// 16 ft steps, barometric setting in 0.1 hPa above 800 hPa.
    public static func selectedVerticalIntention(mcpAltitudeFt: Int, fmsAltitudeFt: Int,
                                                 baroSettingHPa: Double) -> UInt64 {
        let mcp = UInt64(max(0, min(4095, (mcpAltitudeFt + 8) / 16)))
        let fms = UInt64(max(0, min(4095, (fmsAltitudeFt + 8) / 16)))
        let baro = UInt64(max(0, min(4095, ((baroSettingHPa - 800) * 10).rounded())))
        // status+MCP(13) status+FMS(13) status+baro(13) reserved(8) mode bits(4) res(2) source(3)
        return 1 << 55 | mcp << 43 | 1 << 42 | fms << 30 | 1 << 29 | baro << 17
    }

    /// BDS 5,0: track and turn report: roll angle, true track, ground speed, track rate and
    /// true airspeed.
    public static func trackAndTurn(rollDeg: Double, trackDeg: Double, groundSpeedKt: Double,
                                    trackRateDegPerS: Double, trueAirspeedKt: Double) -> UInt64 {
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
