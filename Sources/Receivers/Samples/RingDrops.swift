import IQ
import Synchronization

/// The sample bytes a source's rings dropped since the start: those of the rings it finished
/// with, and those of the ring in use. A source makes a new ring per connection (a dongle
/// plugged in again, rtl_tcp reconnected, a replay's next pass), and the statistics want one
/// count over all of them.
package final class RingDrops: Sendable {
    private let state = Mutex<(finished: Int, current: SampleRing?)>((0, nil))

    /// No drops yet.
    package init() {}

    /// Bytes dropped so far, over every ring.
    package var bytes: Int { state.withLock { $0.finished + ($0.current?.droppedBytes ?? 0) } }

    /// `ring` is the one in use from now on.
    package func begin(_ ring: SampleRing) {
        state.withLock { $0.current = ring }
    }

    /// The ring in use is finished with: its drops join the total.
    package func end() {
        state.withLock {
            $0.finished += $0.current?.droppedBytes ?? 0
            $0.current = nil
        }
    }
}
