import Dispatch
import Logging
import Synchronization

/// The store's one writer: takes the queue's rows every batch and writes them in one
/// transaction, on a serial dispatch queue of its own, so a slow SD card never holds up the
/// sampling task, let alone the receiver.
///
/// Failures pass: a full disk, a read-only directory or a directory another daemon holds
/// is one log line; the rows go back to the bounded queue and the store is tried again
/// after `retryInterval`. A file found damaged while writing is moved aside and a new one
/// made. Retention runs every `pruneInterval`.
package final class HistoryWriter: Sendable {
    /// Seconds between attempts to open the store after a failure.
    package static let retryInterval = 30.0
    /// Seconds between retention passes.
    package static let pruneInterval = 600.0

    private struct State {
        var store: HistoryStore?
        var retryAt = -Double.infinity
        var pruneAt = -Double.infinity
        var lastProblem: String?
        var statistics = HistoryStatistics()
        var flushing = false
    }

    /// The directory of the store.
    package let directory: String
    /// Days and bytes kept.
    package let retention: HistoryRetention
    /// The rows waiting for the next batch.
    package let queue: HistoryQueue
    private let state = Mutex(State())
    private let dispatch = DispatchQueue(label: "aviator-adsb.history")
    private let logger: Logger

    /// A writer of the store in `directory`, keeping `retention`, logging to `logger`.
    package init(directory: String, retention: HistoryRetention, queue: HistoryQueue = HistoryQueue(), logger: Logger) {
        self.directory = directory
        self.retention = retention
        self.queue = queue
        self.logger = logger
    }

    /// Asks for a batch at `now` on the writer's queue; nothing when one is still running.
    package func scheduleFlush(now: Double) {
        let start = state.withLock { state in
            defer { state.flushing = true }
            return !state.flushing
        }
        guard start else { return }
        dispatch.async {
            self.flush(now: now)
            self.state.withLock { $0.flushing = false }
        }
    }

    /// Writes the last batch and closes the store (at shutdown), waiting for it.
    package func finish(now: Double) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            dispatch.async {
                self.flush(now: now)
                self.state.withLock { $0.store = nil }
                done.resume()
            }
        }
    }

    /// One batch: opens the store if it is due, writes what the queue holds, prunes when due.
    /// Runs on the writer's queue (or a test's thread), never two at once.
    package func flush(now: Double) {
        let records = queue.takeAll()
        let opened = state.withLock { state in openIfDue(&state, now: now) }
        guard let store = opened else {
            queue.putBack(records)
            return
        }
        do {
            try store.write(records)
            let size = store.bytesOnDisk
            state.withLock { state in
                state.statistics.bytesOnDisk = size
                state.statistics.written += records.count
                state.statistics.batches += records.isEmpty ? 0 : 1
                if state.lastProblem != nil {
                    logger.notice("history: writing again to \(directory)")
                    state.lastProblem = nil
                }
            }
            try pruneIfDue(store, now: now)
        } catch {
            if !records.isEmpty { queue.putBack(records) }
            state.withLock { state in fail(&state, error, now: now) }
        }
    }

    /// The store, opened now if it is closed and its retry is due; nil when it is not open.
    private func openIfDue(_ state: inout State, now: Double) -> HistoryStore? {
        if let store = state.store { return store }
        guard now >= state.retryAt else { return nil }
        do {
            let store = try HistoryStore(directory: directory, now: now)
            if let aside = store.movedAside {
                logger.error("\(aside.reason); moved it aside to \(aside.path) and started a new history")
            }
            if state.lastProblem == nil { logger.info("history in \(HistoryStore.path(in: directory))") }
            state.store = store
            return store
        } catch {
            fail(&state, error, now: now)
            return nil
        }
    }

    /// Closes the store after `error`, logs it once (a repeat of the last problem is not
    /// logged again), moves a damaged file aside, and sets the next attempt.
    private func fail(_ state: inout State, _ error: HistoryError, now: Double) {
        state.statistics.failures += 1
        let text = error.description
        if text != state.lastProblem {
            // Another daemon on the same directory is a setting, not a fault.
            let level: Logger.Level = error == .locked(directory) ? .notice : .error
            logger.log(
                level: level, "\(text); still receiving, history is tried again every \(Int(Self.retryInterval)) s")
        }
        state.lastProblem = text
        state.store = nil
        if error.isDamagedFile {
            // The next opening finds no file and makes a new one.
            if let aside = try? HistoryStore.moveAside(HistoryStore.path(in: directory), now: now) {
                logger.error("history: moved the damaged file aside to \(aside)")
            }
            state.retryAt = now
        } else {
            state.retryAt = now + Self.retryInterval
        }
    }

    private func pruneIfDue(_ store: HistoryStore, now: Double) throws(HistoryError) {
        guard state.withLock({ now >= $0.pruneAt }) else { return }
        let deleted = try store.prune(now: now, retention: retention)
        if deleted > 0 { logger.info("history: retention removed \(deleted) positions") }
        let size = store.bytesOnDisk
        state.withLock { state in
            state.pruneAt = now + Self.pruneInterval
            state.statistics.bytesOnDisk = size
        }
    }

    /// What the writer counted so far.
    package var statistics: HistoryStatistics {
        var statistics = state.withLock { state in
            var statistics = state.statistics
            statistics.writing = state.store != nil
            return statistics
        }
        statistics.dropped = queue.dropped
        statistics.queued = queue.count
        return statistics
    }
}
