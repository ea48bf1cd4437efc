import FoundationEssentials

/// Identifies and decodes the Comm-B register (BDS) carried in the 56-bit MB field of DF20/21.
///
/// The reply does not say which register it carries: the ground station asked for one, and
/// only the interrogator knows which. A passive receiver must infer it from the content. Only
/// registers that can be told apart safely are reported:
/// - 1,0 and 2,0 start with their own number in the first byte;
/// - 4,0, 5,0 and 6,0 have no header, so each candidate must pass strict consistency checks
///   (a status bit of 0 means its value bits are 0, reserved bits are 0, values are physically
///   plausible), and a reply that passes more than one of them is left unidentified;
/// - 1,7 (the list of supported registers) is a candidate too, because a sparse 4,0 can look
///   exactly like it; it is reported only when nothing else fits.
///
/// Each register has a file of its own (`CommB+TrackAndTurn.swift` and so on) whose doc
/// comment gives its bit layout; MB bits are numbered 1–56 as in the register tables.
public enum CommB {
    /// Fills `message` with the register identified in `mb` (the 56-bit MB field), if any.
    public static func decode(mb: UInt64, into message: inout Message) {
        guard mb != 0 else { return }
        let field = MBField(raw: mb)
        if let callsign = identification(field) {
            message.bds = "2,0"
            message.callsign = callsign
            return
        }
        if isDataLinkCapabilityReport(field) {
            message.bds = "1,0"
            return
        }
        var candidates: [(String, (inout Message) -> Void)] = []
        if isCapabilityReport(field) { candidates.append(("1,7", { _ in })) }
        if let apply = selectedVerticalIntention(field) { candidates.append(("4,0", apply)) }
        if let apply = trackAndTurn(field) { candidates.append(("5,0", apply)) }
        if let apply = headingAndSpeed(field, altitudeFt: message.altitudeBaroFt) {
            candidates.append(("6,0", apply))
        }
        guard candidates.count == 1 else { return }
        message.bds = candidates[0].0
        candidates[0].1(&message)
    }

    /// The MB field with 1-based bit access as in the register tables.
    struct MBField {
        let raw: UInt64
        subscript(first: Int, last: Int) -> UInt64 {
            (raw >> UInt64(56 - last)) & ((1 << UInt64(last - first + 1)) - 1)
        }
        /// A status bit and its value bits: the value when the status is set, 0 when not, and
        /// nil when the status is clear but the value bits are not (an inconsistent register).
        func statusValue(_ status: Int, _ first: Int, _ last: Int) -> UInt64?? {
            let value = self[first, last]
            if self[status, status] == 0 { return value == 0 ? .some(nil) : nil }
            return .some(value)
        }
    }

    /// A value with a sign bit at `signBit` followed by `first...last`, as a signed integer.
    static func signed(_ field: MBField, _ signBit: Int, _ first: Int, _ last: Int) -> Int {
        let magnitude = Int(field[first, last])
        return field[signBit, signBit] == 1 ? magnitude - (1 << (last - first + 1)) : magnitude
    }
}
