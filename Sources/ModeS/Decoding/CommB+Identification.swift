import FoundationEssentials

/// BDS 2,0 "aircraft identification".
///
/// | MB bits | field |
/// | --- | --- |
/// | 1–8 | register number, 0x20 |
/// | 9–56 | callsign: eight 6-bit characters of the ICAO alphabet, as in ADS-B |
extension CommB {
    /// The callsign a 2,0 report carries; nil when `f` is not one (wrong register number, a
    /// character outside the alphabet, or all blanks).
    static func identification(_ f: MBField) -> String? {
        guard f[1, 8] == 0x20, let callsign = ExtendedSquitter.callsign(f[9, 56]), !callsign.isEmpty else {
            return nil
        }
        return callsign
    }
}
