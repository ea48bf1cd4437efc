/// What kind of aircraft it is, in the words a child would use, for the icon drawn and the
/// card's first word: from its type's wake category, engines and species when the type is
/// known, else from the emitter category it broadcasts.
package enum AircraftClass: String, Sendable, CaseIterable {
    /// A light aircraft: piston or electric, light wake.
    case light
    /// A small aircraft: turboprops, business jets, light-to-medium wake.
    case small
    /// A medium jet: the airliners of short and medium routes (A320, B737).
    case mediumJet = "medium_jet"
    /// A heavy or wide-body aircraft: heavy or super wake (B777, A380).
    case heavy
    /// A helicopter or gyrocopter.
    case helicopter
    /// A glider.
    case glider
    /// A balloon or airship.
    case balloon
    /// An unmanned aircraft.
    case drone
    /// A military aircraft: from a military address block or the database's flag.
    case military

    /// The class of a type from the standing data's codes: `species` (H helicopter, G
    /// gyrocopter, T tilt-wing…), `engineType` (J jet, T turboprop, P piston, E electric) and
    /// `wake` (L, L/M, M, M/H, H, J). Helicopters and tilt-wings go by species; heavy and
    /// super wakes are heavy; jets of medium wake are medium jets; light piston and electric
    /// aircraft are light; the rest (turboprops, business jets) are small.
    package static func of(designator: String, species: String, engineType: String, wake: String) -> AircraftClass {
        switch designator {
        case "BALL", "SHIP": return .balloon
        case "GLID": return .glider
        case "UAV": return .drone
        default: break
        }
        if species == "H" || species == "G" || species == "T" { return .helicopter }
        if wake == "H" || wake == "J" { return .heavy }
        if engineType == "J", wake == "M" || wake == "M/H" { return .mediumJet }
        if wake == "L", engineType == "P" || engineType == "E" { return .light }
        return .small
    }

    /// The class an ADS-B emitter category ("A3") stands for, when the type is unknown; nil
    /// for categories that say nothing of the kind (A0, B0, B3 parachutists, C ground).
    package static func of(emitterCategory category: String) -> AircraftClass? {
        switch category {
        case "A1", "B4": return .light
        case "A2": return .small
        case "A3", "A4": return .mediumJet
        case "A5": return .heavy
        case "A6": return .military
        case "A7": return .helicopter
        case "B1": return .glider
        case "B2": return .balloon
        case "B6": return .drone
        default: return nil
        }
    }
}
