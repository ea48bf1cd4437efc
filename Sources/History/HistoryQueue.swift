import Synchronization

/// The bounded queue between the sampling task and the writer: the sampler adds rows without
/// ever waiting, the writer takes them all at each batch. When it is full (the writer has
/// been failing for long), new rows are dropped and counted, never blocking the sampler.
package final class HistoryQueue: Sendable {
    private struct State {
        var records: [HistoryRecord] = []
        var dropped = 0
    }

    /// Most rows held.
    package let capacity: Int
    private let state = Mutex(State())

    /// A queue of at most `capacity` rows.
    package init(capacity: Int = 200_000) { self.capacity = max(1, capacity) }

    /// Adds `records`, dropping (and counting) those that do not fit.
    package func add(_ records: [HistoryRecord]) {
        guard !records.isEmpty else { return }
        state.withLock { state in
            let room = capacity - state.records.count
            if room >= records.count {
                state.records += records
            } else {
                state.records += records.prefix(max(0, room))
                state.dropped += records.count - max(0, room)
            }
        }
    }

    /// Takes every row held, oldest first.
    package func takeAll() -> [HistoryRecord] {
        state.withLock { state in
            defer { state.records = [] }
            return state.records
        }
    }

    /// Puts back `records` that could not be written, before any added since; the oldest go
    /// (counted) when they do not all fit.
    package func putBack(_ records: [HistoryRecord]) {
        state.withLock { state in
            var all = records + state.records
            if all.count > capacity {
                state.dropped += all.count - capacity
                all.removeFirst(all.count - capacity)
            }
            state.records = all
        }
    }

    /// Rows held now.
    package var count: Int { state.withLock { $0.records.count } }
    /// Rows dropped so far.
    package var dropped: Int { state.withLock { $0.dropped } }
}
