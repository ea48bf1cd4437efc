/// Where the history is kept and how much of it (`--history-dir`, `--history-days`,
/// `--history-max-mb`).
package struct HistorySettings: Sendable, Equatable {
    /// The directory holding `history.sqlite`.
    package var directory: String
    /// Days and bytes kept.
    package var retention: HistoryRetention
    /// Seconds between batches (one transaction each).
    package var batchSeconds: Double = 5

    /// Settings for a store in `directory` keeping `retention`.
    package init(directory: String, retention: HistoryRetention = HistoryRetention()) {
        self.directory = directory
        self.retention = retention
    }

    /// The default directory under the state directory `state`.
    package static func defaultDirectory(state: String) -> String {
        (state.hasSuffix("/") ? state : state + "/") + "history"
    }
}
