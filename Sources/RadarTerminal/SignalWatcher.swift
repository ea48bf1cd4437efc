import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Catches signals without a C signal handler: their default action is turned off and a
/// dispatch source records them, so the radar's loop can restore the terminal and leave
/// normally on SIGINT or SIGTERM, and redraw on SIGWINCH.
package final class SignalWatcher {
    private let inbox = Inbox()
    private var sources: [any DispatchSourceSignal] = []

    /// The signals received and not yet taken, shared with the dispatch handlers.
    private final class Inbox: Sendable {
        let received = Mutex<[Int32]>([])
    }

    /// Starts watching `signals`.
    package init(_ signals: [Int32]) {
        let queue = DispatchQueue(label: "signal-watcher")
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [inbox] in inbox.received.withLock { $0.append(number) } }
            source.resume()
            sources.append(source)
        }
    }

    /// The signals received since the last call, oldest first.
    package func take() -> [Int32] {
        inbox.received.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }

    /// Stops watching and gives the signals their default action back.
    package func cancel() {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
        sources.removeAll()
    }
}
