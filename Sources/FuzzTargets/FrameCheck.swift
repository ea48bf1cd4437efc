import ModeS

/// Checks on a frame that passed `FrameValidator`, whoever produced it: its length fits its
/// downlink format, and its parity proves what its flags claim.
enum FrameCheck {
    /// Throws unless `frame` is consistent: DF11/17/18 with a CRC that now checks (DF11 may
    /// carry an interrogator code in the low 7 bits) and the address from the AA field;
    /// address/parity formats with the address the parity gives; no other format; at most
    /// three repaired bits; a finite signal level.
    static func validated(_ frame: Frame, _ what: String) throws(FuzzFailure) {
        let bits = frame.bits
        let df = bits.downlinkFormat
        let syndrome = CRC.syndrome(of: bits)
        try check(
            bits.bitCount == ModeSBits.bitCount(forDownlinkFormat: df),
            "\(what): DF\(df) frame of \(bits.bitCount) bits: \(bits.hex)")
        try check((0...3).contains(frame.correctedBits), "\(what): \(frame.correctedBits) corrected bits: \(bits.hex)")
        try check(frame.signalLevel.isFinite, "\(what): signal level \(frame.signalLevel): \(bits.hex)")
        switch df {
        case 17, 18:
            try check(syndrome == 0, "\(what): DF\(df) accepted with syndrome \(hex(syndrome)): \(bits.hex)")
            try check(
                frame.address == UInt32(bits.field(9, 32)),
                "\(what): DF\(df) address \(hex(frame.address)) is not its AA field: \(bits.hex)")
        case 11:
            try check(syndrome & 0xFFFF80 == 0, "\(what): DF11 accepted with syndrome \(hex(syndrome)): \(bits.hex)")
            try check(
                frame.address == UInt32(bits.field(9, 32)),
                "\(what): DF11 address \(hex(frame.address)) is not its AA field: \(bits.hex)")
        case 0, 4, 5, 16, 20, 21:
            try check(
                frame.address == syndrome,
                "\(what): DF\(df) address \(hex(frame.address)) is not its parity's \(hex(syndrome)): \(bits.hex)")
        default:
            throw FuzzFailure("\(what): DF\(df) accepted: \(bits.hex)")
        }
    }

    /// Decodes `frame` and checks the message's JSON line.
    static func decodes(_ frame: Frame, resolver: inout PositionResolver, time: Double, _ what: String)
        throws(FuzzFailure)
    {
        var message = MessageDecoder().decode(frame)
        try check(
            message.df == frame.downlinkFormat,
            "\(what): decoded DF\(message.df) from DF\(frame.downlinkFormat): \(frame.bits.hex)")
        resolver.resolve(&message, time: time)
        if let latitude = message.latitude, let longitude = message.longitude {
            try check(
                (-90...90).contains(latitude) && (-180...180).contains(longitude),
                "\(what): position \(latitude), \(longitude) off the globe: \(frame.bits.hex)")
        }
        try JSONCheck.object(message.json(hex: frame.bits.hex, time: time), "\(what): message JSON")
    }

    private static func hex(_ value: UInt32) -> String { String(value, radix: 16) }
}
