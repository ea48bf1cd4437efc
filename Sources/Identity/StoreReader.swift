/// Reads the identity store's lines (`IdentityStoreFile`) table by table into an
/// `IdentityStore`, counting rows it cannot use.
struct StoreReader {
    /// The table the lines belong to now.
    private var table = ""
    /// The store as read so far.
    private var store = IdentityStore()
    /// Each airport's index in `store.airports`, by the code routes name it with.
    private var airportIndex: [String: UInt16] = [:]
    /// The aircraft table's lines, read at the end as one tar1090-db file.
    private var aircraftLines: [UInt8] = []
    /// The routes' keys, in file order, and where each one's airports end in `legs`.
    private var routeKeys: [UInt64] = []
    private var routeStarts: [UInt32] = []
    private var legs: [UInt16] = []
    /// The address blocks, in the file's order.
    private var blocks: [AddressBlocks.Block] = []
    /// Country names by ISO code.
    private var countries: [String: String] = [:]
    /// The ICAO codes of the airlines of each IATA code.
    private var iataCodes: [String: [String]] = [:]

    /// Reads one line.
    mutating func read(_ line: UnsafeBufferPointer<UInt8>) {
        if line[0] == UInt8(ascii: "@") {
            table = String(decoding: line.dropFirst(), as: UTF8.self)
            return
        }
        if table == "aircraft" {
            aircraftLines.append(contentsOf: line)
            aircraftLines.append(0x0A)
            return
        }
        if table == "routes" {
            readRoute(line)
            return
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            store.problems.malformed += 1
            return
        }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let counts = ["airlines": 4, "airports": 8, "types": 7, "countries": 2, "blocks": 4]
        guard let expected = counts[table], fields.count == expected else {
            store.problems.wrongColumns += 1
            return
        }
        if !add(fields) { store.problems.malformed += 1 }
    }

    /// Adds one row of the current table; false when it is malformed.
    private mutating func add(_ f: [String]) -> Bool {
        switch table {
        case "airlines":
            guard !f[0].isEmpty, store.airlines[f[0]] == nil else { return f[0].isEmpty ? false : duplicate() }
            store.airlines[f[0]] = Airline(code: f[0], name: f[1], icao: f[2].nilIfEmpty, iata: f[3].nilIfEmpty)
            if !f[2].isEmpty, !f[3].isEmpty { iataCodes[f[3], default: []].append(f[2]) }
        case "airports":
            guard airportIndex[f[0]] == nil else { return duplicate() }
            guard store.airports.count < Int(UInt16.max), let latitude = Double(f[6]), let longitude = Double(f[7]),
                abs(latitude) <= 90, abs(longitude) <= 180,
                let airport = FlightRoute.Airport(
                    icao: f[2].nilIfEmpty, iata: f[3].nilIfEmpty, name: f[1].nilIfEmpty,
                    municipality: f[4].nilIfEmpty, latitude: latitude, longitude: longitude)
            else { return false }
            airportIndex[f[0]] = UInt16(store.airports.count)
            store.airports.append(airport)
        case "types":
            guard !f[0].isEmpty else { return false }
            guard store.types[f[0]] == nil else { return duplicate() }
            store.types[f[0]] = AircraftType(
                designator: f[0], manufacturer: f[1], model: f[2], engines: f[3], engineType: f[4], species: f[5],
                wake: f[6])
        case "countries":
            countries[f[0]] = f[1]
        case "blocks":
            guard let start = UInt32(f[0], radix: 16), let finish = UInt32(f[1], radix: 16), start <= finish
            else { return false }
            blocks.append(.init(start: start, finish: finish, military: f[2] == "1", country: f[3]))
        default:
            return false
        }
        return true
    }

    /// Reads a route line, byte by byte (there are 620,000: no strings or arrays are made
    /// per row, so loading leaves no litter of small allocations behind). A route naming an
    /// unknown airport is counted as such.
    private mutating func readRoute(_ line: UnsafeBufferPointer<UInt8>) {
        guard let tab = line.firstIndex(of: 0x09),
            let key = Callsign.key(String(decoding: line[..<tab], as: UTF8.self))
        else {
            store.problems.malformed += 1
            return
        }
        let first = legs.count
        var start = tab + 1
        var index = start
        while index <= line.count {
            if index == line.count || line[index] == UInt8(ascii: "-") {
                let code = String(decoding: line[start..<index], as: UTF8.self)
                guard let airport = airportIndex[code] else {
                    legs.removeSubrange(first...)
                    store.problems.unknownAirports += 1
                    return
                }
                legs.append(airport)
                start = index + 1
            }
            index += 1
        }
        guard legs.count - first >= 2 else {
            legs.removeSubrange(first...)
            store.problems.malformed += 1
            return
        }
        routeKeys.append(key)
        routeStarts.append(UInt32(legs.count))
    }

    /// Counts a duplicate row; a duplicate is not malformed, so it answers true.
    private mutating func duplicate() -> Bool {
        store.problems.duplicates += 1
        return true
    }

    /// The store read.
    consuming func finish() -> IdentityStore {
        for (iata, codes) in iataCodes where codes.count == 1 { store.iataToICAO[iata] = codes[0] }
        store.blocks = AddressBlocks(blocks: blocks, countryNames: countries)
        let aircraft = aircraftLines.withUnsafeBufferPointer { AircraftDatabase(csv: $0) }
        store.aircraft = aircraft
        store.problems = store.problems + store.aircraft.problems
        // In key order; of two routes with one key, the first read is kept.
        let order = routeKeys.indices.sorted { (routeKeys[$0], $0) < (routeKeys[$1], $1) }
        for index in order {
            let end = Int(routeStarts[index])
            let start = index == 0 ? 0 : Int(routeStarts[index - 1])
            if !store.routes.append(key: routeKeys[index], airports: legs[start..<end]) {
                store.problems.duplicates += 1
            }
        }
        store.routes.shrink()
        return store
    }
}

extension String {
    /// nil for the empty string, else itself.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
