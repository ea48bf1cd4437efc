/// Who an aircraft is, as far as the offline data knows: what a card shows beside the
/// callsign ("Airbus A-320 · easyJet · G-EZAB"), and the database fields readsb writes to
/// aircraft.json. Every field may be unknown.
package struct AircraftIdentity: Sendable, Hashable {
    /// The registration: from the aircraft database, else derived from the address (US
    /// N-numbers).
    package var registration: String?
    /// The ICAO type designator ("A320").
    package var typeCode: String?
    /// Manufacturer and model ("Airbus A-320"): the standing data's, else the database's
    /// long description.
    package var typeDescription: String?
    /// What kind of aircraft it is, for its icon.
    package var aircraftClass: AircraftClass?
    /// Who operates it: the database's owner, else the airline of its callsign.
    package var operatorName: String?
    /// The year it was built.
    package var year: String?
    /// The ISO code of the country whose address block it is in ("GB").
    package var countryCode: String?
    /// That country's name ("United Kingdom").
    package var country: String?
    /// Whether it is military: a military address block or the database's flag.
    package var military = false
    /// The aircraft database's row, when it has one: what aircraft.json's `r`, `t`, `desc`,
    /// `ownOp`, `year` and `dbFlags` are written from, as readsb writes them.
    package var record: AircraftRecord?

    /// Nothing known.
    package init() {}

    /// Whether it holds nothing worth showing.
    package var isEmpty: Bool { self == AircraftIdentity() }
}
