import FoundationEssentials

/// Aircraft status, type code 28, subtype 1 (emergency and priority status).
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–8 | subtype (1: emergency/priority status, 2: TCAS resolution advisory) |
/// | 9–11 | emergency state (0 none, 1 general, 2 medical, 3 fuel, 4 communication, 5 unlawful interference, 6 downed) |
/// | 12–24 | Mode A code (13 bits, as in DF5) |
extension ExtendedSquitter {
    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeAircraftStatus(_ me: (Int, Int) -> UInt64, into message: inout Message) {
        guard me(6, 8) == 1 else { return }
        message.emergency = Int(me(9, 11))
        message.squawk = IdentityCode.squawk(UInt32(me(12, 24)))
    }
}
