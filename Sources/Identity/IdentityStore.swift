/// The offline identity data, loaded: airlines, airports, ICAO types, address blocks, an
/// aircraft table and routes by callsign. Built by `aviator-adsb db build` from the standing
/// data into one file (`IdentityStoreFile`), loaded once at start, off the sample path, and
/// only read afterwards: every lookup is a binary search or a hash lookup in memory.
package struct IdentityStore: Sendable {
    /// Airlines by code (ICAO, else IATA).
    package var airlines: [String: Airline] = [:]
    /// The ICAO code of each IATA airline code that exactly one airline with an ICAO code has.
    package var iataToICAO: [String: String] = [:]
    /// The airports routes name, by index.
    package var airports: [FlightRoute.Airport] = []
    /// Types by designator.
    package var types: [String: AircraftType] = [:]
    /// Address blocks and country names.
    package var blocks = AddressBlocks(blocks: [], countryNames: [:])
    /// The aircraft table (the standing data's; `--db-file` replaces it).
    package var aircraft = AircraftDatabase()
    /// Routes by callsign.
    package var routes = RouteTable()
    /// What was skipped while loading.
    package var problems = LoadProblems()

    /// An empty store.
    package init() {}

    /// The route for `callsign` as the aircraft sends it, with every airport's name, codes
    /// and position, or nil when the data has none.
    package func route(for callsign: String) -> FlightRoute? {
        guard let normalised = Callsign.normalised(callsign, iataToICAO: { iataToICAO[$0] }),
            let key = Callsign.key(normalised), let indexes = routes.airports(for: key)
        else { return nil }
        let list = indexes.compactMap { Int($0) < airports.count ? airports[Int($0)] : nil }
        guard list.count == indexes.count, let origin = list.first, let destination = list.last else { return nil }
        return FlightRoute(
            callsign: callsign, origin: origin, destination: destination, stops: Array(list.dropFirst().dropLast()),
            source: .offline)
    }

    /// The airline flying `callsign`, from its code, if known.
    package func airline(for callsign: String) -> Airline? {
        guard let normalised = Callsign.normalised(callsign, iataToICAO: { iataToICAO[$0] }) else { return nil }
        let code = String(normalised.prefix { !$0.isNumber })
        return airlines[code]
    }

    /// Everything known of the aircraft at `address`: its database row (`database` when given,
    /// else the store's own table), its type, country and military block, the airline of its
    /// `callsign`, and its class (from its type, else from its emitter `category`).
    package func identity(
        address: UInt32, callsign: String? = nil, category: String? = nil, database: AircraftDatabase? = nil
    ) -> AircraftIdentity {
        var identity = AircraftIdentity()
        let record = (database ?? aircraft).record(for: address)
        identity.record = record
        identity.registration = record?.registration ?? NNumber.registration(for: address)
        identity.typeCode = record?.typeCode
        identity.year = record?.year
        identity.operatorName = record?.owner ?? callsign.flatMap { airline(for: $0)?.name }
        let type = record?.typeCode.flatMap { types[$0] }
        identity.typeDescription = type?.description ?? record?.description
        if let block = blocks.block(for: address) {
            identity.countryCode = block.country == "ZZ" ? nil : block.country
            identity.country = identity.countryCode.flatMap { blocks.countryName($0) }
            identity.military = block.military
        }
        if record?.flags.contains(.military) == true { identity.military = true }
        identity.aircraftClass =
            type?.aircraftClass
            ?? (identity.military ? .military : category.flatMap(AircraftClass.of(emitterCategory:)))
        return identity
    }

    /// The bytes its tables hold, about what it takes in memory (airports, airlines and types
    /// estimated at 100 bytes each).
    package var byteCount: Int {
        routes.byteCount + aircraft.byteCount + (airports.count + airlines.count + types.count) * 100
    }
}
