import Identity

/// The input is an identity store file (`IdentityStoreFile.parse`), with the header line put
/// in front half of the time so the tables are reached.
///
/// Checks: parsing is deterministic; a route found for a callsign has at least two airports,
/// each with a position on the globe, and its plausibility can be judged anywhere without
/// trapping; an identity lookup for any address answers.
enum IdentityStoreTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        var bytes = Array(input.bindMemory(to: UInt8.self))
        if bytes.first.map({ $0 & 1 == 0 }) ?? false {
            bytes = Array((IdentityStoreFile.header + "\n").utf8) + bytes.dropFirst()
        }
        let first = bytes.withUnsafeBufferPointer { try? IdentityStoreFile.parse($0) }
        let second = bytes.withUnsafeBufferPointer { try? IdentityStoreFile.parse($0) }
        try check((first?.routes.count, first?.problems) == (second?.routes.count, second?.problems), "reads differ")
        guard let store = first else { return }
        for callsign in ["EZY1", "BAW123", "U21234", "AB1", "ZZZ9999"] {
            guard let route = store.route(for: callsign) else { continue }
            try check(route.airports.count >= 2, "route with \(route.airports.count) airports")
            for airport in route.airports {
                guard let latitude = airport.latitude, let longitude = airport.longitude else {
                    throw FuzzFailure("airport without a position")
                }
                try check(abs(latitude) <= 90 && abs(longitude) <= 180, "airport off the globe")
            }
            _ = RoutePlausibility.isPlausible(route, latitude: 51, longitude: 0)
        }
        for address: UInt32 in [0, 0x400000, 0xA00001, 0xFFFFFF] {
            _ = store.identity(address: address, callsign: "EZY1", category: "A3")
        }
    }
}
