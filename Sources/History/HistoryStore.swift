import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The history file, open for writing: `history.sqlite` in the history directory, in WAL
/// mode, written one transaction per batch.
///
/// Opening checks that the file is ours (`HistorySchema`) and sound (`quick_check`); a
/// damaged or foreign file is renamed aside with the time in its name, never deleted, and a
/// new store is made in its place. Only one daemon writes a directory: the store holds an
/// exclusive `flock` on `history.lock` while it is open.
///
/// Unchecked `Sendable`: a store is used by one writer at a time (`HistoryWriter` calls it
/// only from its serial queue), and handing it to that queue is all that crosses domains.
package final class HistoryStore: @unchecked Sendable {
    /// The database file's name in the history directory.
    package static let fileName = "history.sqlite"
    /// The lock file's name in the history directory.
    package static let lockName = "history.lock"

    /// The open connection.
    package let connection: SQLiteConnection
    /// The directory.
    package let directory: String
    private let lock: Int32
    private lazy var statements = Statements(connection: connection)

    /// The file moved aside while opening, if any: its new path and why.
    package private(set) var movedAside: (path: String, reason: String)?

    /// The prepared inserts, made once per connection.
    private struct Statements {
        let sighting: SQLiteStatement?
        let position: SQLiteStatement?
        let minute: SQLiteStatement?
        let coverage: SQLiteStatement?

        init(connection: SQLiteConnection) {
            sighting = try? connection.prepare(HistorySchema.insertSighting)
            position = try? connection.prepare(HistorySchema.insertPosition)
            minute = try? connection.prepare(HistorySchema.insertMinute)
            coverage = try? connection.prepare(HistorySchema.insertCoverage)
        }
    }

    /// Opens (or makes) the store in `directory`, made if missing; `now` names a file moved
    /// aside. Throws `HistoryError.locked` when another daemon has it, `.directory` when the
    /// directory cannot be made, `.sqlite` when SQLite cannot open or write it.
    package init(directory: String, now: Double) throws(HistoryError) {
        try Self.makeDirectory(directory)
        lock = try Self.takeLock(directory)
        self.directory = directory
        let path = Self.path(in: directory)
        do {
            (connection, movedAside) = try Self.openChecked(path: path, now: now)
        } catch {
            close(lock)
            throw error
        }
    }

    deinit { close(lock) }

    /// The database's path in `directory`.
    package static func path(in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    }

    /// Opens `path` and checks it; a damaged or foreign file is moved aside and a new one made.
    private static func openChecked(path: String, now: Double) throws(HistoryError) -> (
        SQLiteConnection, (path: String, reason: String)?
    ) {
        do {
            return (try openAndPrepare(path: path), nil)
        } catch let error where error.isDamagedFile {
            let aside = try moveAside(path, now: now)
            return (try openAndPrepare(path: path), (aside, error.description))
        }
    }

    /// Opens `path`, checks whose and how sound it is, sets the pragmas and makes the tables.
    private static func openAndPrepare(path: String) throws(HistoryError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        let id = try connection.integer("PRAGMA application_id") ?? 0
        let version = try connection.integer("PRAGMA user_version") ?? 0
        let tables = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
        if id == 0 && tables == 0 {
            try connection.execute(HistorySchema.creation)
        } else if id != HistorySchema.applicationID {
            throw .foreign("\(path) is not a history store of aviator-adsb (application id \(id))")
        } else if version > HistorySchema.version {
            throw .foreign("\(path) has schema version \(version), newer than this program's \(HistorySchema.version)")
        }
        let check = try connection.text("PRAGMA quick_check") ?? "no answer"
        guard check == "ok" else { throw .sqlite(code: 11, message: "\(path) is damaged: \(check)") }
        // WAL: a batch is one append to the log, readers never wait for the writer. NORMAL
        // syncs at checkpoints, not at every commit: a crash of the process loses nothing
        // committed, a power cut at most the last batches (docs/history.md).
        _ = try connection.text("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.execute(HistorySchema.tables)
        return connection
    }

    /// Renames `path` (and its WAL and shared-memory files) to `path.damaged-YYYYmmddTHHMMSSZ`;
    /// returns the new name.
    static func moveAside(_ path: String, now: Double) throws(HistoryError) -> String {
        let stamp = timestamp(now)
        let aside = "\(path).aside-\(stamp)"
        for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw .directory("cannot move \(path + suffix) aside: \(String(cString: strerror(errno)))")
            }
        }
        return aside
    }

    /// `now` as YYYYmmddTHHMMSSZ (UTC).
    static func timestamp(_ now: Double) -> String {
        var seconds = time_t(now.isFinite ? now : 0)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// Makes `directory` (and its parents) when missing, private to the user's group.
    static func makeDirectory(_ directory: String) throws(HistoryError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o750) != 0 && errno != EEXIST {
                throw .directory("cannot make \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Takes the directory's lock, or throws `.locked` when another process holds it.
    private static func takeLock(_ directory: String) throws(HistoryError) -> Int32 {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + lockName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard descriptor >= 0 else {
            throw .directory("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .locked(directory)
        }
        return descriptor
    }

    /// Writes `records` in one transaction: all of them or, on failure, none.
    package func write(_ records: [HistoryRecord]) throws(HistoryError) {
        guard !records.isEmpty else { return }
        let statements = self.statements
        try connection.transaction { () throws(HistoryError) in
            for record in records { try Self.insert(record, with: statements, connection: connection) }
        }
    }

    private static func insert(
        _ record: HistoryRecord, with statements: Statements, connection: SQLiteConnection
    ) throws(HistoryError) {
        func run(_ statement: SQLiteStatement?, _ sql: String, _ values: [SQLiteValue?]) throws(HistoryError) {
            if let statement {
                try statement.run(values)
            } else {
                try connection.prepare(sql).run(values)
            }
        }
        switch record {
        case .sighting(let s):
            try run(
                statements.sighting, HistorySchema.insertSighting,
                [
                    .integer(Int64(s.address)), .real(s.start), .real(s.lastSeen), .string(s.callsign),
                    .string(s.registration), .string(s.typeCode), .string(s.typeDescription),
                    .string(s.aircraftClass), .string(s.operatorName), .string(s.category), .int(s.minAltitudeFt),
                    .int(s.maxAltitudeFt), .double(s.maxSpeedKt), .double(s.closestKm)
                ])
        case .position(let p):
            try run(
                statements.position, HistorySchema.insertPosition,
                [
                    .integer(Int64(p.address)), .real(p.time), .real(p.latitude), .real(p.longitude),
                    .int(p.altitudeFt), .double(p.groundSpeedKt), .double(p.trackDeg), .int(p.verticalRateFpm),
                    .integer(p.onGround ? 1 : 0)
                ])
        case .minute(let m):
            try run(
                statements.minute, HistorySchema.insertMinute,
                [
                    .integer(Int64(m.time)), .int(m.messages), .int(m.aircraft), .int(m.withPosition),
                    .double(m.maxRangeKm), .double(m.signalDBFS), .double(m.noiseDBFS), .double(m.peakSignalDBFS)
                ])
        case .coverage(let c):
            try run(
                statements.coverage, HistorySchema.insertCoverage,
                [
                    .integer(Int64(c.hour)), .int(c.sector), .int(c.band), .real(c.rangeKm), .real(c.latitude),
                    .real(c.longitude), .int(c.altitudeFt)
                ])
        }
    }
}
