/// An ICAO type designator (Doc 8643) as the standing data describes it: who makes it,
/// what it is called, and the codes its class comes from.
package struct AircraftType: Sendable, Hashable {
    /// The designator ("A320").
    package let designator: String
    /// The manufacturer ("Airbus").
    package let manufacturer: String
    /// The model ("A-320").
    package let model: String
    /// Engine count ("2", or "C" for several driving one propeller).
    package let engines: String
    /// Engine type: J jet, T turboprop, P piston, E electric, R rocket.
    package let engineType: String
    /// Species: L landplane, S seaplane, A amphibian, H helicopter, G gyrocopter, T tilt-wing.
    package let species: String
    /// Wake turbulence category: L, L/M, M, M/H, H (J for the A380).
    package let wake: String

    /// A type from its standing-data fields.
    package init(
        designator: String, manufacturer: String, model: String, engines: String, engineType: String,
        species: String, wake: String
    ) {
        self.designator = designator
        self.manufacturer = manufacturer
        self.model = model
        self.engines = engines
        self.engineType = engineType
        self.species = species
        self.wake = wake
    }

    /// "Airbus A-320": manufacturer and model, as a card says it.
    package var description: String {
        manufacturer.isEmpty ? model : model.isEmpty ? manufacturer : manufacturer + " " + model
    }

    /// Its class, from species, engine type and wake category.
    package var aircraftClass: AircraftClass {
        AircraftClass.of(designator: designator, species: species, engineType: engineType, wake: wake)
    }
}
