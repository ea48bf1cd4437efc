import Logging
import NIOConcurrencyHelpers

/// Keeps every line logged through its logger, for tests that check what the logs say.
final class LogRecorder: Sendable {
    /// A logged line.
    struct Line: Sendable {
        var level: Logger.Level
        var text: String
    }

    private let storage = NIOLockedValueBox<[Line]>([])

    /// Every line so far.
    var lines: [Line] { storage.withLockedValue { $0 } }
    /// The text of every line so far, one per line.
    var text: String { lines.map(\.text).joined(separator: "\n") }
    /// Lines at warning level or above.
    var problems: [String] { lines.filter { $0.level >= .warning }.map(\.text) }

    /// Whether some line contains all of `parts`.
    func contains(_ parts: String...) -> Bool {
        lines.contains { line in parts.allSatisfy { line.text.contains($0) } }
    }

    /// A logger writing here, at every level.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(storage: self.storage) }
    }

    private struct Handler: LogHandler {
        let storage: NIOLockedValueBox<[Line]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            storage.withLockedValue { $0.append(Line(level: event.level, text: event.message.description)) }
        }
    }
}
