import ArgumentParser
import FoundationEssentials
import Identity
import Receivers
import Support

/// `aviator-adsb db update`: fetches the current standing data (and, when asked, tar1090-db's
/// aircraft database) over HTTPS, checks it, and replaces the files the daemon reads; a
/// failed or hostile download leaves them as they were and says why in one line
/// (docs/identity.md, "Keeping it fresh").
struct DatabaseUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Fetch fresh standing data (and tar1090-db's aircraft database) over HTTPS and replace the files.",
        discussion: """
            The standing data's archive is unpacked in memory within --max-unpacked-mb, its \
            schema-01 CSV files are built into a store as by db build, and the store must load \
            and hold at least 100000 routes, 1000 airlines, 1000 airports, 1000 types and 100 \
            address blocks before it is renamed over OUTPUT. With --with-aircraft-db, the \
            aircraft database must read as --db-file reads it, with at least 10000 aircraft and \
            at most 1% bad rows, before it is renamed over its file. Only https:// is fetched; \
            redirects go to https:// only, at most 5. The files go to the state directory \
            ($STATE_DIRECTORY, else $XDG_STATE_HOME/aviator-adsb, else \
            ~/.local/state/aviator-adsb) unless given. The daemon reads them at its next start.
            """
    )

    /// Where the standing data comes from.
    static let standingDataURL = "https://codeload.github.com/vradarserver/standing-data/tar.gz/refs/heads/main"
    /// Where tar1090-db's aircraft database comes from.
    static let aircraftDatabaseURL = "https://github.com/wiedehopf/tar1090-db/raw/csv/aircraft.csv.gz"

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where the identity store goes (default: STATE/identity-store.gz).", valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("standing-data-url"),
        help: ArgumentHelp(
            "The standing data repository's tar.gz.",
            valueName: "url"))
    var standingDataURL: String = Self.standingDataURL

    @Flag(
        name: .customLong("with-aircraft-db"),
        help: "Also fetch tar1090-db's aircraft.csv.gz (implied by --db-file and --aircraft-db-url).")
    var withAircraftDatabase = false

    @Flag(
        name: .customLong("aircraft-db-only"),
        help: "Fetch only the aircraft database, not the standing data.")
    var aircraftDatabaseOnly = false

    @Option(
        name: .customLong("db-file"),
        help: ArgumentHelp(
            "Where the aircraft database goes (default: STATE/aircraft.csv.gz); give the daemon the same --db-file.",
            valueName: "file"))
    var dbFile: String?

    @Option(
        name: .customLong("aircraft-db-url"),
        help: ArgumentHelp(
            "tar1090-db's aircraft database, gzip or plain (default: \(Self.aircraftDatabaseURL)).", valueName: "url"))
    var aircraftDatabaseURL: String?

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Trust the certificates in this PEM file instead of the system's (a mirror of your own).", valueName: "file"
        ))
    var caFile: String?

    @Option(
        name: .customLong("max-download-mb"),
        help: ArgumentHelp("The largest download, in MB (1 to 2000).", valueName: "mb"))
    var maxDownloadMB = 200

    @Option(
        name: .customLong("max-unpacked-mb"),
        help: ArgumentHelp("The most a download may decompress to, in MB (1 to 4000).", valueName: "mb"))
    var maxUnpackedMB = 512

    @Option(
        name: .customLong("timeout"),
        help: ArgumentHelp("Seconds each download may take, redirects included (1 to 3600).", valueName: "s"))
    var timeout = 300

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "The state directory the files go to unless -o or --db-file say otherwise.", valueName: "dir"))
    var stateDirectory: String?

    func validate() throws {
        guard (1...2000).contains(maxDownloadMB) else { throw ValidationError("--max-download-mb must be 1 to 2000") }
        guard (1...4000).contains(maxUnpackedMB) else { throw ValidationError("--max-unpacked-mb must be 1 to 4000") }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be 1 to 3600 seconds") }
    }

    mutating func run() async throws {
        var update = IdentityUpdate { print($0) }
        update.download.maximumBytes = maxDownloadMB << 20
        update.download.timeout = .seconds(timeout)
        update.download.caFile = caFile
        update.maximumUnpackedBytes = maxUnpackedMB << 20
        if !aircraftDatabaseOnly {
            let store = try output ?? inStateDirectory("identity-store.gz")
            do throws(IdentityError) {
                print(try await update.updateStore(from: standingDataURL, to: store))
            } catch {
                throw RuntimeError("\(error.message); \(store) is unchanged")
            }
        }
        guard withAircraftDatabase || aircraftDatabaseOnly || dbFile != nil || aircraftDatabaseURL != nil else {
            return
        }
        let database = try dbFile ?? inStateDirectory("aircraft.csv.gz")
        do throws(IdentityError) {
            print(
                try await update.updateAircraftDatabase(
                    from: aircraftDatabaseURL ?? Self.aircraftDatabaseURL, to: database))
        } catch {
            throw RuntimeError("\(error.message); \(database) is unchanged")
        }
    }

    /// `name` in the state directory, which is made (mode 700) when it is not there yet.
    private func inStateDirectory(_ name: String) throws -> String {
        guard let directory = stateDirectory ?? StateDirectory.resolve(environment: ProcessInfo.processInfo.environment)
        else { throw RuntimeError("no state directory: set STATE_DIRECTORY or HOME, or give --state-dir or -o") }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw RuntimeError("cannot make the state directory \(directory)")
        }
        return directory + "/" + name
    }
}
