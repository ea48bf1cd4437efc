/// What the history writer counted, for the statistics line and `/metrics`.
package struct HistoryStatistics: Sendable, Equatable {
    /// Rows written and committed.
    package var written = 0
    /// Batches committed.
    package var batches = 0
    /// Rows dropped because the queue was full.
    package var dropped = 0
    /// Batches that failed (the rows went back to the queue).
    package var failures = 0
    /// Rows waiting in the queue.
    package var queued = 0
    /// The files' size on disk, bytes.
    package var bytesOnDisk: Int64 = 0
    /// Whether the store is open and writing.
    package var writing = false

    /// Nothing counted yet.
    package init() {}

    /// "history: 1234 rows in 56 batches, 3.2 MB" and the drops and failures when any.
    package var summary: String {
        var text = "history: \(written) rows in \(batches) batches, "
        text += "\(bytesOnDisk / 1_000_000).\((bytesOnDisk % 1_000_000) / 100_000) MB"
        if !writing { text += ", not writing" }
        if dropped > 0 { text += ", \(dropped) rows dropped (queue full)" }
        if failures > 0 { text += ", \(failures) batches failed" }
        return text
    }
}
