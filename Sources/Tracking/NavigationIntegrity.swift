/// The navigation integrity category (NIC) and radius of containment (Rc) of a position
/// report: how far from the reported position the aircraft may be, as its own navigation
/// system vouches.
///
/// The type code of the position message sets both, refined for type codes 11, 13 and 16
/// (and 7 on the surface) by two supplement bits: A from the operational status message,
/// B from the airborne position itself. The radii are the ADS-B standard's containment
/// bounds (in nautical miles or metres), given in whole metres rounded up, so a bound is
/// never reported tighter than it is.
package enum NavigationIntegrity {
    /// NIC and Rc (metres, nil when unknown) for a position of type code `typeCode` with
    /// NIC supplements `a` and `b`; nil for a type code that is not a position.
    package static func of(typeCode: Int, supplementA a: Bool, supplementB b: Bool) -> (nic: Int, rcMeters: Int?)? {
        let nauticalMile = 1852.0
        let bound: (Int, Double?)
        switch typeCode {
        case 5, 9, 20: bound = (11, 7.5)
        case 6, 10, 21: bound = (10, 25)
        case 7, 11: bound = a && b ? (9, 75) : (8, 0.1 * nauticalMile)
        case 12: bound = (7, 0.2 * nauticalMile)
        case 13:
            switch (a, b) {
            case (false, true): bound = (6, 0.3 * nauticalMile)
            case (false, false): bound = (6, 0.5 * nauticalMile)
            case (true, true): bound = (6, 0.6 * nauticalMile)
            case (true, false): bound = (6, nil)
            }
        case 14: bound = (5, 1.0 * nauticalMile)
        case 15: bound = (4, 2.0 * nauticalMile)
        case 16: bound = a && b ? (3, 4 * nauticalMile) : (2, 8 * nauticalMile)
        case 17: bound = (1, 20 * nauticalMile)
        case 8, 18, 22: bound = (0, nil)
        default: return nil
        }
        // Rounded up (0.1 NM, 185.2 m, is 186); the small allowance keeps a whole bound such
        // as 25 m from becoming 26 through floating-point error.
        return (bound.0, bound.1.map { Int(($0 - 1e-9).rounded(.up)) })
    }
}
