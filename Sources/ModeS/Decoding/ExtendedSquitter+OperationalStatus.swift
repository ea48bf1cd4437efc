import Foundation

/// Operational status, type code 31, subtypes 0 (airborne) and 1 (surface): the version of
/// the ADS-B standard the transponder follows and the integrity and accuracy figures.
///
/// | ME bits | field |
/// | --- | --- |
/// | 6–8 | subtype |
/// | 9–24 | capability class |
/// | 25–40 | operational mode |
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
        message.adsbVersion = Int(me(41, 43))
        if message.adsbVersion ?? 0 >= 1 {
            message.nacP = Int(me(45, 48))
            message.sil = Int(me(51, 52))
        }
    }
}
