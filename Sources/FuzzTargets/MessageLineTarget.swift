import ModeS

/// The input is text, one message per line, as `aviator-adsb decode` reads a file: each line
/// is parsed, validated (trusting address/parity frames as `decode` does, and strictly),
/// decoded, positioned and written as JSON; a line that fails parity is written as the
/// rejected message `decode` prints.
///
/// Checks: a parsed message's hex reads back as the same bits; every JSON line is a valid
/// object with finite numbers; validated frames are consistent (`FrameCheck`).
enum MessageLineTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        var trusting = FrameValidator(trustAddressParity: true)
        var strict = FrameValidator()
        var resolver = PositionResolver(receiver: GeoPoint(latitude: 52.3, longitude: 4.75))
        var number = 0
        for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let text = String(decoding: line, as: UTF8.self)
            guard case .success(let parsed) = MessageLine.parse(text[...]) else { continue }
            let bits = parsed.bits
            let what = "line \(number)"
            guard case .success(let again) = MessageLine.parse(bits.hex[...]), again.bits == bits, again.time == nil
            else {
                throw FuzzFailure("\(what): \(bits.hex) does not read back as itself")
            }
            let time = parsed.time ?? Double(number) * 0.01
            if let frame = strict.validate(bits, time: time) {
                try FrameCheck.validated(frame, "\(what) (strict)")
            }
            guard let frame = trusting.validate(bits, time: time) else {
                var rejected = Message(df: bits.downlinkFormat, icao: CRC.syndrome(of: bits), crcOK: false)
                if [11, 17, 18].contains(rejected.df) { rejected.icao = UInt32(bits.field(9, 32)) }
                try JSONCheck.object(rejected.json(hex: bits.hex, time: parsed.time), "\(what): rejected message JSON")
                continue
            }
            try FrameCheck.validated(frame, what)
            try FrameCheck.decodes(frame, resolver: &resolver, time: time, what)
        }
    }
}
