import CSQLite

/// One open SQLite database, used from one thread at a time: statements, transactions and
/// the few pragmas the store needs. Every failure is a `HistoryError` carrying SQLite's own
/// result code and message, so the caller can tell a full disk from a corrupt file.
///
/// A class because the handle must be closed exactly once; it is not `Sendable` and stays
/// with the thread or the lock that owns it.
package final class SQLiteConnection {
    /// The raw handle, for the statements of this connection.
    let handle: OpaquePointer
    /// The path the database was opened from.
    package let path: String

    /// Opens (and with `create`, creates) the database at `path`; `readOnly` opens it so
    /// nothing can be written through this connection. Waits up to `busyMilliseconds` for a
    /// lock held by another connection before a call fails with `SQLITE_BUSY`.
    package init(path: String, readOnly: Bool = false, create: Bool = true, busyMilliseconds: Int32 = 2000)
        throws(HistoryError)
    {
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var raw: OpaquePointer?
        let code = sqlite3_open_v2(path, &raw, flags, nil)
        guard code == SQLITE_OK, let raw else {
            let message = raw.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(raw)
            throw HistoryError.sqlite(code: code, message: "open \(path): \(message)")
        }
        handle = raw
        self.path = path
        sqlite3_extended_result_codes(raw, 1)
        sqlite3_busy_timeout(raw, busyMilliseconds)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements, no parameters) and throws on failure.
    package func execute(_ sql: String) throws(HistoryError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(error)
            throw HistoryError.sqlite(code: code, message: message)
        }
    }

    /// A prepared statement of `sql`, its parameters to bind.
    package func prepare(_ sql: String) throws(HistoryError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// The single integer `sql` answers (a pragma, a count); nil when it gives no row.
    package func integer(_ sql: String) throws(HistoryError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.int64(0)
    }

    /// The single text `sql` answers; nil when it gives no row or NULL.
    package func text(_ sql: String) throws(HistoryError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Runs `body` inside one transaction: committed when it returns, rolled back when it
    /// throws. `BEGIN IMMEDIATE` takes the write lock at once, so a batch never fails half
    /// way for want of it.
    package func transaction(_ body: () throws(HistoryError) -> Void) throws(HistoryError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The error SQLite reported last on this connection, for a failed call.
    func lastError(_ code: Int32) -> HistoryError {
        HistoryError.sqlite(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}
