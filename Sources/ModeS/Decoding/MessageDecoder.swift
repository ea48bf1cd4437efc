/// Turns a checked `Frame` into a `Message`: reads every field its downlink format carries.
///
/// Stateless: positions need a pair of frames or a reference and are resolved afterwards by a
/// `PositionResolver`; which frames to trust is the `FrameValidator`'s decision.
public struct MessageDecoder: Sendable {
    /// A decoder.
    public init() {}

    /// The content of `frame`.
    public func decode(_ frame: Frame) -> Message {
        let bits = frame.bits
        let df = bits.downlinkFormat
        var message = Message(
            df: df, icao: frame.address, crcOK: frame.parityVerified ? true : nil,
            correctedBits: frame.correctedBits)
        switch df {
        case 0, 16:
            // VS: 1 means the aircraft reports being on the ground.
            message.onGround = bits.field(6, 6) == 1
            setAltitude(bits, into: &message)
        case 4, 20:
            setFlightStatus(bits, into: &message)
            setAltitude(bits, into: &message)
        case 5, 21:
            setFlightStatus(bits, into: &message)
            message.squawk = IdentityCode.squawk(UInt32(bits.field(20, 32)))
        case 11:
            setCapability(bits, into: &message)
            message.interrogator = Int(CRC.syndrome(of: bits) & 0x7F)
        case 17:
            setCapability(bits, into: &message)
            ExtendedSquitter.decode(bits, into: &message)
        case 18:
            let controlField = Int(bits.field(6, 8))
            message.capability = controlField
            // CF 0/1: ADS-B from non-transponder devices; 2 and 5: fine TIS-B; 6: ADS-R. These
            // share the DF17 ME layouts. CF 3 (coarse TIS-B) and the rest have their own layouts.
            if [0, 1, 2, 5, 6].contains(controlField) { ExtendedSquitter.decode(bits, into: &message) }
            if [2, 3, 6].contains(controlField) { setAddressKind(bits, into: &message) }
        default:
            break
        }
        if df == 20 || df == 21 { CommB.decode(mb: bits.field(33, 88), into: &message) }
        return message
    }

    private func setAltitude(_ bits: ModeSBits, into message: inout Message) {
        if let altitude = AltitudeCode.decode13(UInt32(bits.field(20, 32))) {
            message.altitudeBaroFt = altitude.feet
            if altitude.metric { message.altitudeMetric = true }
        }
    }

    private func setFlightStatus(_ bits: ModeSBits, into message: inout Message) {
        let status = Int(bits.field(6, 8))
        message.flightStatus = status
        switch status {
        case 0, 2: message.onGround = false
        case 1, 3: message.onGround = true
        default: break
        }
        message.alert = [2, 3, 4].contains(status)
        message.spi = status == 4 || status == 5
    }

    /// The IMF bit of a TIS-B or ADS-R message: set when the address field holds something
    /// other than an ICAO address. It sits where the format has a bit to spare: ME bit 8 of an
    /// airborne position, 21 of a surface position, 9 of a velocity; other formats do not say.
    private func setAddressKind(_ bits: ModeSBits, into message: inout Message) {
        let imfBit: Int
        switch message.typeCode ?? 0 {
        case 5...8: imfBit = 21
        case 9...18, 20...22: imfBit = 8
        case 19: imfBit = 9
        default: return
        }
        message.nonICAOAddress = bits.field(imfBit + 32, imfBit + 32) == 1
    }

    private func setCapability(_ bits: ModeSBits, into message: inout Message) {
        let capability = Int(bits.field(6, 8))
        message.capability = capability
        if capability == 4 { message.onGround = true }
        if capability == 5 { message.onGround = false }
    }
}
