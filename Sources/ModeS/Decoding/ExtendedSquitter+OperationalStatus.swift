import FoundationEssentials

/// Operational status, type code 31, subtypes 0 (airborne) and 1 (surface): the version of
/// the ADS-B standard the transponder follows and the integrity and accuracy figures.
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–8 | subtype |
/// | 9–24 | capability class (surface, version 2: 17–19 NACv) |
/// | 25–40 | operational mode (25–26 format 0; 31–32 system design assurance, SDA) |
/// | 41–43 | ADS-B version (0, 1 or 2) |
/// | 44 | NIC supplement A |
/// | 45–48 | navigation accuracy for position (NACp) |
/// | 49–50 | geometric vertical accuracy (airborne) |
/// | 51–52 | source integrity level (SIL) |
/// | 53 | NIC baro (airborne) or track/heading (surface) |
/// | 54 | horizontal reference direction |
/// | 55 | SIL supplement |
/// | 56 | reserved |
extension ExtendedSquitter {
    /// Fills `message` with this group's fields from the ME field (`me(first, last)`).
    static func decodeOperationalStatus(_ me: (Int, Int) -> UInt64, into message: inout Message) {
        let subtype = me(6, 8)
        guard subtype <= 1 else { return }
        let version = Int(me(41, 43))
        message.adsbVersion = version
        guard version >= 1 else { return }
        message.nicSupplementA = me(44, 44) == 1
        message.nacP = Int(me(45, 48))
        message.sil = Int(me(51, 52))
        message.headingReferenceTrue = me(54, 54) == 1
        if subtype == 0 {
            message.gva = Int(me(49, 50))
            message.nicBaro = Int(me(53, 53))
        }
        guard version >= 2 else { return }
        message.silPerSample = me(55, 55) == 1
        // A surface report's capability class carries the velocity accuracy (bits 17–19).
        if subtype == 1 { message.nacV = Int(me(17, 19)) }
        // The operational mode's layout is defined for format 0 only.
        if me(25, 26) == 0 { message.sda = Int(me(31, 32)) }
    }
}
