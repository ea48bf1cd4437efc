import CSQLite

/// A prepared SQLite statement: values are bound to its numbered parameters (never pasted
/// into the SQL), then `step` walks its rows. Reset it to run it again with new values.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    /// Prepares `sql` on `connection`.
    init(connection: SQLiteConnection, sql: String) throws(HistoryError) {
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.handle, sql, -1, &raw, nil)
        guard code == SQLITE_OK, let raw else { throw connection.lastError(code) }
        statement = raw
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds `values` to parameters 1, 2, … in order; nil binds NULL.
    package func bind(_ values: [SQLiteValue?]) throws(HistoryError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case nil: code = sqlite3_bind_null(statement, index)
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                // SQLITE_TRANSIENT: SQLite copies the text before the call returns.
                code = sqlite3_bind_text(
                    statement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            guard code == SQLITE_OK else { throw connection.lastError(code) }
        }
    }

    /// Moves to the next row: true when there is one, false when the statement is done.
    @discardableResult
    package func step() throws(HistoryError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(code)
        }
    }

    /// Runs the statement once with `values`, then resets it for the next run.
    package func run(_ values: [SQLiteValue?]) throws(HistoryError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    /// Makes the statement ready to run again and clears its bindings.
    package func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    /// Whether column `index` of the current row is NULL.
    package func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// Column `index` of the current row as an integer; nil when NULL.
    package func int64(_ index: Int32) -> Int64? {
        isNull(index) ? nil : sqlite3_column_int64(statement, index)
    }

    /// Column `index` of the current row as a number; nil when NULL.
    package func double(_ index: Int32) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(statement, index)
    }

    /// Column `index` of the current row as text; nil when NULL.
    package func text(_ index: Int32) -> String? {
        guard !isNull(index), let bytes = sqlite3_column_text(statement, index) else { return nil }
        return String(cString: bytes)
    }
}

/// A value bound to a statement's parameter.
package enum SQLiteValue: Sendable, Equatable {
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)

    /// `number` as an integer value, nil staying nil.
    package static func int(_ number: Int?) -> SQLiteValue? { number.map { .integer(Int64($0)) } }
    /// `number` as a real value, nil (or not finite) becoming NULL.
    package static func double(_ number: Double?) -> SQLiteValue? {
        guard let number, number.isFinite else { return nil }
        return .real(number)
    }
    /// `text` as a text value, nil staying nil.
    package static func string(_ text: String?) -> SQLiteValue? { text.map { .text($0) } }
}
