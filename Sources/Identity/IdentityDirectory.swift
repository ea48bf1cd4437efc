import Synchronization

/// The daemon's one place to ask who an aircraft is: the identity store and, once loaded,
/// the `--db-file` aircraft database that replaces the store's aircraft table. Both arrive
/// in the background after start (`install`); until then every lookup answers "unknown"
/// at once, so frames never wait for data.
///
/// Lookups take the lock only to copy two references out, then search without it: readers
/// never wait for each other or for a load.
package final class IdentityDirectory: Sendable {
    private struct Tables: Sendable {
        var store: IdentityStore?
        var database: AircraftDatabase?
    }

    private let tables = Mutex(Tables())

    /// An empty directory; nothing is known until `install` is called.
    package init() {}

    /// Makes `store` the store looked up from now on.
    package func install(store: IdentityStore) {
        tables.withLock { $0.store = store }
    }

    /// Makes `database` the aircraft table looked up from now on, in place of the store's.
    package func install(database: AircraftDatabase) {
        tables.withLock { $0.database = database }
    }

    /// Whether a store or database is loaded.
    package var isLoaded: Bool { tables.withLock { $0.store != nil || $0.database != nil } }

    /// Everything known of the aircraft at `address` (see `IdentityStore.identity`); with no
    /// store yet, only what the address and category say.
    package func identity(address: UInt32, callsign: String?, category: String?) -> AircraftIdentity {
        let current = tables.withLock { $0 }
        return (current.store ?? IdentityStore()).identity(
            address: address, callsign: callsign, category: category, database: current.database)
    }

    /// The offline route of `callsign`, if the store has one.
    package func route(for callsign: String) -> FlightRoute? {
        tables.withLock { $0.store }?.route(for: callsign)
    }
}
