import ArgumentParser
import FoundationEssentials
import Identity
import Logging
import Receivers
import Support

/// `aviator-adsb db`: the identity data's tools. `db build` makes the identity store from a
/// copy of the VRS standing data, `db update` fetches a fresh one, `db check` loads files.
struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract:
            "Build, update and check the identity store (types, airlines, airports, routes) and the aircraft database.",
        subcommands: [DatabaseBuildCommand.self, DatabaseUpdateCommand.self, DatabaseCheckCommand.self]
    )
}

/// `aviator-adsb db build`: reads the standing data's CSV tables and writes the gzip-compressed
/// identity store the daemon loads with `--identity-store` (docs/identity.md).
struct DatabaseBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write the identity store from an unpacked copy of the VRS standing data.",
        discussion: """
            The folder is the standing data's repository (or the tar.xz of ../shared/standing-data \
            unpacked): airlines/, airports/, model-type/, countries/, code-blocks/, aircraft/ and \
            routes/, each with schema-01 CSV files. Rows that do not parse and routes naming an \
            unknown airport are counted and left out. The store is written through a temporary \
            file renamed over OUTPUT.
            """
    )

    /// The standing data's folder.
    @Argument(help: "The standing data's folder.")
    var standingData: String

    /// Where the store goes.
    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the store.", valueName: "file"))
    var output: String = "data/identity-store.gz"

    mutating func run() throws {
        var builder = IdentityStoreBuilder(root: URL(fileURLWithPath: standingData))
        let text: String
        do {
            text = try builder.build()
        } catch let error as IdentityError {
            throw RuntimeError(error.message)
        }
        do throws(IdentityError) {
            try IdentityFiles.writeCompressed(text, to: output)
        } catch {
            throw RuntimeError(error.message)
        }
        let tables = builder.written.map { "\($0.rows) \($0.table)" }.joined(separator: ", ")
        let skipped = builder.problems.total == 0 ? "" : "; skipped: \(builder.problems.summary)"
        print("wrote \(output): \(tables)\(skipped)")
    }
}

/// `aviator-adsb db check`: loads an identity store and an aircraft database as the daemon
/// would, and says what they hold, how long they took and how much memory they took.
struct DatabaseCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load an identity store and/or a --db-file and report rows, skipped rows, time and memory."
    )

    /// The identity store to load, if any.
    @Option(name: .customLong("identity-store"), help: ArgumentHelp("An identity store.", valueName: "file"))
    var identityStore: String?

    /// The aircraft database to load, if any.
    @Option(name: .customLong("db-file"), help: ArgumentHelp("An aircraft database.", valueName: "file"))
    var dbFile: String?

    mutating func run() throws {
        guard identityStore != nil || dbFile != nil else {
            throw ValidationError("give --identity-store, --db-file or both")
        }
        let directory = IdentityDirectory()
        let before = ResidentMemory.bytes()
        var failed = false
        if let identityStore {
            let started = ContinuousClock.now
            if let store = IdentityLoader.loadStore(
                identityStore, into: directory, logger: Logger(label: "aviator-adsb"))
            {
                print(
                    "\(identityStore): \(store.types.count) types, \(store.airlines.count) airlines, \(store.airports.count) airports, \(store.routes.count) routes, \(store.aircraft.count) aircraft; skipped: \(store.problems.summary); \(milliseconds(since: started)) ms"
                )
            } else {
                failed = true
            }
        }
        if let dbFile {
            let started = ContinuousClock.now
            if let database = IdentityLoader.loadDatabase(
                dbFile, into: directory, logger: Logger(label: "aviator-adsb"))
            {
                print(
                    "\(dbFile): \(database.count) aircraft; skipped: \(database.problems.summary); \(milliseconds(since: started)) ms"
                )
            } else {
                failed = true
            }
        }
        IdentityLoader.releaseFreedMemory()
        let grown = Double(max(0, ResidentMemory.bytes() - before)) / 1_048_576
        print("resident memory grew by \((grown * 10).rounded() / 10) MB")
        if failed { throw RuntimeError("a file could not be loaded (see above)") }
    }

    /// Whole milliseconds from `start` to now.
    private func milliseconds(since start: ContinuousClock.Instant) -> Int {
        Int(((ContinuousClock.now - start).inSeconds * 1000).rounded())
    }
}
