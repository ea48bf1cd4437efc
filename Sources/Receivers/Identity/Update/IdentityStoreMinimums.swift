import Identity

/// The fewest rows a freshly built identity store must have before it replaces the old one:
/// a store far below what the standing data holds is a damaged or a wrong download, and
/// installing it would take identities away from the daemon. The defaults are a fraction of
/// the standing data of 2026 (5,964 airlines, 3,799 airports that routes name, 2,857 types,
/// 811 address blocks, 618,583 routes).
package struct IdentityStoreMinimums: Sendable {
    /// Airlines.
    package var airlines = 1_000
    /// Airports named by a route.
    package var airports = 1_000
    /// Type designators.
    package var types = 1_000
    /// ICAO address blocks.
    package var blocks = 100
    /// Routes by callsign.
    package var routes = 100_000

    /// The defaults.
    package init() {}

    /// Throws an `IdentityError` naming the first table of `store` below its minimum.
    package func check(_ store: IdentityStore) throws(IdentityError) {
        let counts = [
            ("routes", store.routes.count, routes), ("airlines", store.airlines.count, airlines),
            ("airports", store.airports.count, airports), ("types", store.types.count, types),
            ("address blocks", store.blocks.count, blocks)
        ]
        for (table, count, minimum) in counts where count < minimum {
            throw IdentityError("it makes a store of only \(count) \(table) (at least \(minimum) expected)")
        }
    }
}
