import FoundationEssentials

/// Decodes the 56-bit ME field of ADS-B extended squitters (DF17, and DF18 with an ADS-B
/// control field): identification, positions, velocity, status and target state.
///
/// ME bits are numbered 1–56 as in the ADS-B tables; ME bit n is message bit n + 32. Bits 1–5
/// are always the type code (TC), which says how the rest is laid out; each group of type
/// codes has a file of its own (`ExtendedSquitter+Identification.swift` and so on) whose doc
/// comment gives the layout.
enum ExtendedSquitter {
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
            decodeAircraftStatus(me, into: &message)
        case 29:
            decodeTargetState(me, into: &message)
        case 31:
            decodeOperationalStatus(me, into: &message)
        default:
            break
        }
    }
}
