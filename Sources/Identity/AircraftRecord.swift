/// One airframe as an aircraft database knows it, by its ICAO address: the fields of
/// tar1090-db's `aircraft.csv` (`icao;reg;type;flags;desc;year;ownop`), which readsb puts in
/// aircraft.json as `r`, `t`, `dbFlags`, `desc`, `year` and `ownOp`. Empty fields are nil.
package struct AircraftRecord: Sendable, Hashable {
    /// The readsb database flags: which of them a row sets. A row's `flags` field sets bit n
    /// when its nth character is `1`, for the first sixteen characters ("10" is military,
    /// "0001" LADD), as readsb reads it; the four below are the ones with a meaning.
    package struct Flags: OptionSet, Sendable, Hashable {
        /// The bits, as aircraft.json's `dbFlags` writes them.
        package let rawValue: UInt16
        /// A flags value from its bits.
        package init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Bit 0: a military aircraft.
        package static let military = Flags(rawValue: 1)
        /// Bit 1: an aircraft tar1090 marks as interesting.
        package static let interesting = Flags(rawValue: 2)
        /// Bit 2: on the FAA's Privacy ICAO Address programme (its address is not its own).
        package static let privacy = Flags(rawValue: 4)
        /// Bit 3: on the FAA's Limiting Aircraft Data Displayed list.
        package static let limitedDisplay = Flags(rawValue: 8)
    }

    /// The registration ("G-EZAB"), at most 12 bytes.
    package var registration: String?
    /// The ICAO type designator ("A320"), at most 4 bytes.
    package var typeCode: String?
    /// The database flags.
    package var flags: Flags
    /// The long type description ("AIRBUS A-320"), at most 64 bytes.
    package var description: String?
    /// The year it was built, as the database writes it (at most 4 bytes).
    package var year: String?
    /// Its owner or operator ("easyJet"), at most 64 bytes.
    package var owner: String?

    /// A record from its fields.
    package init(
        registration: String? = nil, typeCode: String? = nil, flags: Flags = [], description: String? = nil,
        year: String? = nil, owner: String? = nil
    ) {
        self.registration = registration
        self.typeCode = typeCode
        self.flags = flags
        self.description = description
        self.year = year
        self.owner = owner
    }

    /// The longest value kept of each field, in bytes of UTF-8, as readsb keeps them (the
    /// sizes of its fields); longer values are cut there, back to the last whole character,
    /// so a hostile row cannot make an entry large and aircraft.json says what readsb's says.
    package enum Limit {
        /// Registrations.
        package static let registration = 12
        /// Type designators.
        package static let typeCode = 4
        /// Long type descriptions.
        package static let description = 64
        /// Years.
        package static let year = 4
        /// Owners and operators.
        package static let owner = 64
    }
}
