import ModeS

/// Builds the Mode S replies to ground interrogations: DF11 all-call replies (and
/// acquisition squitters), DF4/DF5 surveillance replies and DF20/DF21 Comm-B replies.
/// DF11 carries a real CRC (possibly XORed with the interrogator code); the others overlay
/// the transponder address on the parity, as real replies do.
package enum ReplyEncoder {
    /// DF11: all-call reply. `interrogatorCode` 0 is a spontaneous acquisition squitter;
    /// 1–15 (II) or up to 63 (SI) answers a given interrogator.
    package static func allCall(icao: UInt32, capability: UInt64 = 5, interrogatorCode: UInt32 = 0) -> ModeSBits {
        var bits = ModeSBits(bitCount: 56)
        bits.setField(1, 5, 11)
        bits.setField(6, 8, capability & 7)
        bits.setField(9, 32, UInt64(icao & 0xFFFFFF))
        return CRC.withParity(bits, overlay: interrogatorCode & 0x7F)
    }

    /// Flight status: 0 airborne, 1 on ground (no alert, no SPI).
    package static func flightStatus(onGround: Bool) -> UInt64 { onGround ? 1 : 0 }

    /// DF4: altitude reply (13-bit AC field, 25 ft or Gillham code).
    package static func altitudeReply(
        icao: UInt32, altitudeFt: Int?, onGround: Bool,
        forceGillham: Bool = false
    ) -> ModeSBits {
        let ac = altitudeFt.flatMap { AltitudeCode.acField($0, forceGillham: forceGillham) } ?? 0
        return surveillance(df: 4, icao: icao, fs: flightStatus(onGround: onGround), field: ac, mb: nil)
    }

    /// DF5: identity reply (13-bit ID field, the squawk).
    package static func identityReply(icao: UInt32, squawk: String, onGround: Bool) -> ModeSBits {
        let id = IdentityCode.encode(squawk: squawk).map(UInt64.init) ?? 0
        return surveillance(df: 5, icao: icao, fs: flightStatus(onGround: onGround), field: id, mb: nil)
    }

    /// DF20: Comm-B altitude reply with a 56-bit MB field (see `CommBEncoder`).
    package static func commBAltitudeReply(icao: UInt32, altitudeFt: Int?, onGround: Bool, mb: UInt64) -> ModeSBits {
        let ac = altitudeFt.flatMap { AltitudeCode.acField($0) } ?? 0
        return surveillance(df: 20, icao: icao, fs: flightStatus(onGround: onGround), field: ac, mb: mb)
    }

    /// DF21: Comm-B identity reply with a 56-bit MB field.
    package static func commBIdentityReply(icao: UInt32, squawk: String, onGround: Bool, mb: UInt64) -> ModeSBits {
        let id = IdentityCode.encode(squawk: squawk).map(UInt64.init) ?? 0
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
