#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the history keeps: how many days, and at most how many bytes on disk (the database
/// and its write-ahead log together).
package struct HistoryRetention: Sendable, Equatable {
    /// Days kept; older rows are deleted.
    package var days: Int
    /// Bytes the files may take; beyond it the oldest hours of positions go first.
    package var maxBytes: Int64

    /// A retention of `days` days and `maxMegabytes` megabytes (10^6 bytes).
    package init(days: Int = 7, maxMegabytes: Int = 500) {
        self.days = days
        self.maxBytes = Int64(maxMegabytes) * 1_000_000
    }
}

extension HistoryStore {
    /// How many bytes the store takes on disk: the database file and its WAL.
    package var bytesOnDisk: Int64 {
        let path = Self.path(in: directory)
        return Self.fileSize(path) + Self.fileSize(path + "-wal")
    }

    /// The bytes the rows take inside the file (pages in use), which pruning lowers at once.
    package func bytesInUse() throws(HistoryError) -> Int64 {
        let pages = try connection.integer("PRAGMA page_count") ?? 0
        let free = try connection.integer("PRAGMA freelist_count") ?? 0
        let size = try connection.integer("PRAGMA page_size") ?? 4096
        return (pages - free) * size
    }

    /// Deletes what `retention` no longer keeps as of `now`: rows older than its days, then,
    /// while the rows take more than its bytes, the oldest hour of positions (at most
    /// `maxSteps` hours a call), and gives the freed pages back to the file system. Returns
    /// how many position rows went.
    @discardableResult
    package func prune(now: Double, retention: HistoryRetention, maxSteps: Int = 48) throws(HistoryError) -> Int {
        let cutoff = now - Double(retention.days) * 86_400
        var deleted = 0
        try connection.transaction { () throws(HistoryError) in
            deleted += try delete("DELETE FROM positions WHERE time < ?", .real(cutoff))
            _ = try delete("DELETE FROM sightings WHERE last_seen < ?", .real(cutoff))
            _ = try delete("DELETE FROM minutes WHERE time < ?", .real(cutoff))
            _ = try delete("DELETE FROM coverage WHERE hour < ?", .integer(Int64((cutoff / 3600).rounded(.down))))
        }
        var steps = 0
        while steps < maxSteps, try bytesInUse() > retention.maxBytes {
            steps += 1
            guard let oldest = try oldestPositionTime() else { break }
            let until = oldest + 3600
            try connection.transaction { () throws(HistoryError) in
                deleted += try delete("DELETE FROM positions WHERE time < ?", .real(until))
                _ = try delete("DELETE FROM sightings WHERE last_seen < ?", .real(until))
            }
        }
        if deleted > 0 || steps > 0 {
            try connection.execute("PRAGMA incremental_vacuum")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return deleted
    }

    /// The time of the oldest stored position.
    func oldestPositionTime() throws(HistoryError) -> Double? {
        let statement = try connection.prepare("SELECT min(time) FROM positions")
        guard try statement.step() else { return nil }
        return statement.double(0)
    }

    private func delete(_ sql: String, _ value: SQLiteValue) throws(HistoryError) -> Int {
        try connection.prepare(sql).run([value])
        return Int(try connection.integer("SELECT changes()") ?? 0)
    }

    /// The size of the file at `path`, 0 when missing.
    static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
