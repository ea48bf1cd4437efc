import CSQLite

/// Why the history store could not do something; one line for the log.
package enum HistoryError: Error, CustomStringConvertible, Equatable {
    /// SQLite refused: its result code (extended) and message.
    case sqlite(code: Int32, message: String)
    /// The file is not a history store of this program (another application's database, or
    /// a newer schema); it is moved aside, never written into.
    case foreign(String)
    /// Another daemon holds the history directory.
    case locked(String)
    /// The directory cannot be made or used.
    case directory(String)

    /// The line for the log.
    package var description: String {
        switch self {
        case .sqlite(_, let message): "history: \(message)"
        case .foreign(let reason): "history: \(reason)"
        case .locked(let path): "history: \(path) is in use by another daemon"
        case .directory(let reason): "history: \(reason)"
        }
    }

    /// Whether the file itself is damaged or not a database, so that it must be moved aside
    /// to go on (as opposed to a full disk or a read-only directory, which pass).
    package var isDamagedFile: Bool {
        switch self {
        case .sqlite(let code, _): code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB
        case .foreign: true
        case .locked, .directory: false
        }
    }
}
