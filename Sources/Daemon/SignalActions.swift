import Dispatch
import FoundationEssentials
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the daemon does on the signals that do not stop it: SIGHUP, which by default would
/// end the process and leave its socket behind, only logs that there is nothing to reload
/// (every setting is a command-line option); SIGUSR1 logs the statistics line at once.
/// SIGINT and SIGTERM stay with the `ServiceGroup`, which stops the daemon cleanly.
///
/// A service of the daemon's group: it listens until the group shuts down.
package struct SignalActions: Service, CustomStringConvertible {
    /// The signals handled here.
    package static let signals = [SIGHUP, SIGUSR1]

    /// Where the lines go.
    package let logger: Logger
    /// The statistics line SIGUSR1 logs.
    package let statistics: @Sendable () -> String

    /// Signal handling that logs to `logger`, with `statistics` for SIGUSR1.
    package init(logger: Logger, statistics: @escaping @Sendable () -> String) {
        self.logger = logger
        self.statistics = statistics
    }

    /// Sets the signals' default action aside as the first thing the daemon does, so that one
    /// arriving while it starts is not fatal either; `run` then acts on them.
    package static func ignoreDefaultActions() {
        for number in signals { signal(number, SIG_IGN) }
    }

    package func run() async throws {
        Self.ignoreDefaultActions()
        let queue = DispatchQueue(label: "aviator-adsb.signals")
        let sources = Self.signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [logger, statistics] in
                switch number {
                case SIGHUP: logger.notice("SIGHUP: nothing to reload; options are read at start only")
                default: logger.info("SIGUSR1: \(statistics())")
                }
            }
            source.resume()
            return source
        }
        // Until the group shuts down (gracefully or by cancellation).
        try? await gracefulShutdown()
        for source in sources { source.cancel() }
    }

    package var description: String { "SignalActions" }
}
