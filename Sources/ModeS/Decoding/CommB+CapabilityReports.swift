import FoundationEssentials

/// BDS 1,0 "data link capability report".
///
/// | MB bits | field |
/// | --- | --- |
/// | 1–8 | register number, 0x10 |
/// | 9 | continuation flag |
/// | 10–14 | reserved, 0 |
/// | 15–56 | capabilities (overlay, ACAS, Mode S subnetwork version, ...) |
///
/// BDS 1,7 "common usage GICB capability report": one flag per register in bits 1–24 (bit 7:
/// 2,0; bit 9: 4,0; bit 10: 4,1; bit 16: 5,0; bit 24: 6,0 ...), bits 25–56 reserved (0).
extension CommB {
    /// Whether `f` is a 1,0 report: its register number and its reserved bits.
    static func isDataLinkCapabilityReport(_ f: MBField) -> Bool {
        f[1, 8] == 0x10 && f[10, 14] == 0
    }

    /// Whether `f` can be a 1,7 report: reserved bits clear, and 2,0 listed (the aircraft
    /// identification register every Comm-B transponder supports).
    static func isCapabilityReport(_ f: MBField) -> Bool {
        f[25, 56] == 0 && f[7, 7] == 1
    }
}
