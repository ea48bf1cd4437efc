/// An airline of the standing data: the name a card shows for a callsign's code.
package struct Airline: Sendable, Hashable {
    /// The code the data keys it by: its ICAO code, or its IATA code when it has none.
    package let code: String
    /// Its name ("easyJet").
    package let name: String
    /// Its three-letter ICAO code, if it has one.
    package let icao: String?
    /// Its two-character IATA code, if it has one (not unique).
    package let iata: String?

    /// An airline from its fields.
    package init(code: String, name: String, icao: String?, iata: String?) {
        self.code = code
        self.name = name
        self.icao = icao
        self.iata = iata
    }
}
