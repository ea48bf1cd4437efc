import Logging

/// Keeps a network source connected: runs one connection after another until the task is
/// cancelled, waiting between them as `Backoff` says. Each failure and close is one warning
/// line naming the source and the wait.
struct Reconnecting {
    /// The wait before the next attempt: 1 s, doubling to `maximum` while attempts keep
    /// ending soon, however they end (refused, failed, or accepted and closed at once, which
    /// would otherwise be retried every second for ever); back to 1 s once a connection has
    /// lasted `settled`, however that one ended. A value with the time passed in.
    struct Backoff {
        /// The longest wait.
        let maximum: Duration
        /// How long a connection must last for the next wait to start again from 1 s.
        let settled: Duration
        private var next: Duration

        /// A backoff whose first wait is 1 s (or `maximum`, when shorter).
        init(maximum: Duration, settled: Duration = .seconds(30)) {
            self.maximum = maximum
            self.settled = settled
            next = min(.seconds(1), maximum)
        }

        /// The wait after an attempt that lasted `duration`.
        mutating func wait(afterAttemptLasting duration: Duration) -> Duration {
            if duration >= settled { next = min(.seconds(1), maximum) }
            let wait = next
            next = min(next * 2, maximum)
            return wait
        }
    }

    /// The source's label, for the log.
    let label: String
    /// The longest wait between attempts.
    let maximumBackoff: Duration
    let logger: Logger

    /// Runs `connection` again and again; returns when the task is cancelled.
    func run(_ connection: () async throws -> Void) async {
        var backoff = Backoff(maximum: maximumBackoff)
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let start = clock.now
            let ending: String
            do {
                try await connection()
                ending = "\(label) closed the connection; reconnecting"
            } catch is CancellationError {
                return
            } catch {
                ending = "\(label): \(ConnectionFailure.describe(error)); retrying"
            }
            let wait = backoff.wait(afterAttemptLasting: clock.now - start)
            logger.warning("\(ending) in \(wait)")
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }
}
