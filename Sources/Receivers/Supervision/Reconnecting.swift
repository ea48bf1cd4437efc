import Logging

/// Keeps a network source connected: runs one connection after another until the task is
/// cancelled, waiting 1 s after a failure or a close, doubling to `maximumBackoff` while
/// connections keep failing (a connection that was made resets the wait). Each failure and
/// close is one warning line naming the source.
struct Reconnecting {
    /// The source's label, for the log.
    let label: String
    /// The longest wait between attempts.
    let maximumBackoff: Duration
    let logger: Logger

    /// Runs `connection` again and again; returns when the task is cancelled.
    func run(_ connection: () async throws -> Void) async {
        var backoff = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                try await connection()
                backoff = .seconds(1)
                logger.warning("\(label) closed the connection; reconnecting")
            } catch is CancellationError {
                return
            } catch {
                logger.warning("\(label): \(error); retrying in \(backoff)")
            }
            do { try await Task.sleep(for: backoff) } catch { return }
            backoff = min(backoff * 2, maximumBackoff)
        }
    }
}
