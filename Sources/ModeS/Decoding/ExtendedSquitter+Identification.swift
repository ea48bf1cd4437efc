import FoundationEssentials

/// Identification and category, type codes 1–4.
///
/// | ME bits | field |
/// | --- | --- |
/// | 1–5 | type code: 4 set A, 3 set B, 2 set C, 1 set D (the emitter category's set) |
/// | 6–8 | emitter category within the set (A3: large aircraft, B1: glider, ...) |
/// | 9–56 | callsign: eight 6-bit characters of the ICAO alphabet |
extension ExtendedSquitter {
    /// The 64 characters of the 6-bit callsign alphabet as ASCII ('#' marks unused codes).
    static let alphabet: [UInt8] = Array("#ABCDEFGHIJKLMNOPQRSTUVWXYZ##### ###############0123456789######".utf8)

    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeIdentification(
        _ me: (Int, Int) -> UInt64, typeCode: Int,
        into message: inout Message
    ) {
        // The set's letter ("D" for type code 1 up to "A" for 4), then the category's digit.
        let set = UInt8(ascii: "A") + UInt8(4 - typeCode)
        let digit = UInt8(ascii: "0") + UInt8(me(6, 8))
        message.category = String(unsafeUninitializedCapacity: 2) { buffer in
            buffer[0] = set
            buffer[1] = digit
            return 2
        }
        message.callsign = callsign(me(9, 56))
    }

    /// Callsign characters from eight 6-bit codes, without trailing blanks; nil if any code
    /// is outside the alphabet. Every identification squitter and Comm-B 2,0 report goes
    /// through here, so the text is written straight into a string of at most eight bytes
    /// (which Swift keeps inline, without a heap allocation).
    static func callsign(_ field: UInt64) -> String? {
        @inline(__always) func character(_ index: Int) -> UInt8 {
            alphabet[Int((field >> UInt64(42 - 6 * index)) & 0x3F)]
        }
        var length = 0
        for index in 0..<8 {
            let byte = character(index)
            if byte == UInt8(ascii: "#") { return nil }
            if byte != UInt8(ascii: " ") { length = index + 1 }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            for index in 0..<length { buffer[index] = character(index) }
            return length
        }
    }
}
