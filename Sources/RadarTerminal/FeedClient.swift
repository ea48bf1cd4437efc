import Dispatch
import FeedProtocol
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client of the daemon's feed socket for the terminal radar: connects, reads its lines on a
/// background thread and reports them, sends `view` commands, and when the daemon goes away
/// (restarts, is not started yet) tries again with a short backoff, re-sending the last view so
/// the radar looks the same after the daemon is back.
package final class FeedClient: Sendable {
    /// What the client reports, on its own thread.
    package enum Event: Sendable {
        /// Connected (again) to the daemon.
        case connected
        /// A line from the daemon.
        case line(FeedLine)
        /// A line that could not be read; it is skipped.
        case unreadable(FeedParseError)
        /// Not connected: the attempt failed or the connection ended, and why.
        case disconnected(FeedClientError)
    }

    /// First wait before connecting again, seconds; doubled after every failure up to
    /// `maxBackoff`, so a restarted daemon is found within two seconds without busy looping.
    package static let firstBackoff = 0.1
    /// Longest wait between attempts, seconds.
    package static let maxBackoff = 2.0

    /// The socket path.
    package let path: String
    private let handler: @Sendable (Event) -> Void
    private let state = Mutex(State())

    private struct State {
        var descriptor: Int32 = -1
        var stopped = false
        var started = false
        var viewCommand: String?
    }

    /// A client of the socket at `path` that calls `handler` for everything that happens.
    package init(path: String, handler: @escaping @Sendable (Event) -> Void) {
        self.path = path
        self.handler = handler
    }

    /// Starts connecting and reading on a background thread; a second call does nothing.
    package func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        // A queue of its own: Dispatch gives it a thread of its own for as long as the loop runs.
        DispatchQueue(label: "feed-client").async { [self] in self.loop() }
    }

    /// Stops: closes the connection and ends the background thread.
    package func stop() {
        state.withLock { state in
            state.stopped = true
            if state.descriptor >= 0 { shutdown(state.descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Asks the daemon for frames drawn with this view (a `view` command line without its
    /// newline); kept and sent again after every reconnection. Never waits: it is called from
    /// the screen's loop, and a daemon that stopped reading (its socket buffer full) must not
    /// freeze the radar; the command is then only kept.
    package func send(viewCommand: String) {
        state.withLock { state in
            state.viewCommand = viewCommand
            if state.descriptor >= 0 {
                _ = UnixSocket.write(state.descriptor, Array((viewCommand + "\n").utf8), waiting: false)
            }
        }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func loop() {
        var backoff = FeedClient.firstBackoff
        while !stopped {
            switch UnixSocket.connect(path: path) {
            case .failure(let error):
                handler(.disconnected(error))
                pause(backoff)
                backoff = min(backoff * 2, FeedClient.maxBackoff)
            case .success(let fd):
                let command: String? = state.withLock { state in
                    state.descriptor = fd
                    return state.viewCommand
                }
                backoff = FeedClient.firstBackoff
                handler(.connected)
                if let command { _ = UnixSocket.write(fd, Array((command + "\n").utf8), waiting: false) }
                let reason = readLines(fd)
                state.withLock { state in
                    state.descriptor = -1
                    close(fd)
                }
                if !stopped { handler(.disconnected(reason)) }
            }
        }
    }

    /// Reads lines until the connection ends; why it ended.
    private func readLines(_ fd: Int32) -> FeedClientError {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return FeedClientError("connection to \(path) lost: \(String(cString: strerror(errno)))") }
            if count == 0 { return FeedClientError("aviator-adsb closed the connection") }
            guard let lines = splitter.lines(from: buffer[0..<count]) else {
                return FeedClientError("the feed sent a line longer than \(splitter.limit) bytes")
            }
            for line in lines where !line.isEmpty {
                do {
                    handler(.line(try FeedLine(parsing: line)))
                } catch {
                    handler(.unreadable(error))
                }
            }
        }
    }

    /// Sleeps `seconds`, waking early when stopped.
    private func pause(_ seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while !stopped, Date() < end { usleep(20_000) }
    }
}
