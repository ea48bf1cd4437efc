import ArgumentParser
import History
import Logging

/// The history's options (docs/history.md): where the store is, how many days and megabytes
/// it keeps, or none at all.
struct HistoryOptions: ParsableArguments {
    @Option(
        name: .customLong("history-dir"),
        help: ArgumentHelp(
            "Keep the history (tracks, statistics, coverage, diary) in history.sqlite in this directory (default: history/ in the state directory).",
            valueName: "dir"))
    var historyDir: String?

    @Option(
        name: .customLong("history-days"),
        help: ArgumentHelp("Days of history kept, 1 to 3650; older rows are deleted.", valueName: "n"))
    var historyDays: Int = 7

    @Option(
        name: .customLong("history-max-mb"),
        help: ArgumentHelp(
            "Most megabytes the history takes on disk, 10 to 1000000; beyond it the oldest positions go first.",
            valueName: "mb"))
    var historyMaxMB: Int = 500

    @Flag(name: .customLong("no-history"), help: "Keep no history: nothing is written to disk.")
    var noHistory = false

    func validate() throws {
        if !(1...3650).contains(historyDays) {
            throw ValidationError("--history-days must be between 1 and 3650, got \(historyDays)")
        }
        if !(10...1_000_000).contains(historyMaxMB) {
            throw ValidationError("--history-max-mb must be between 10 and 1000000, got \(historyMaxMB)")
        }
        if noHistory, historyDir != nil {
            throw ValidationError("--history-dir and --no-history contradict each other")
        }
        if let historyDir, historyDir.isEmpty { throw ValidationError("--history-dir needs a directory") }
    }

    /// The history's settings, with the default directory under `stateDirectory`; nil with
    /// `--no-history`, or (with a notice) when no directory is known.
    func settings(stateDirectory: String?, logger: Logger) -> HistorySettings? {
        guard !noHistory else { return nil }
        guard let directory = historyDir ?? stateDirectory.map(HistorySettings.defaultDirectory) else {
            logger.notice("no state directory known: no history is kept (set --history-dir or --state-dir)")
            return nil
        }
        return HistorySettings(
            directory: directory, retention: HistoryRetention(days: historyDays, maxMegabytes: historyMaxMB))
    }
}
