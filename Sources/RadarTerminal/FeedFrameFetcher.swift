import FeedProtocol
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gets one frame from the feed and hangs up, for `aviator-adsb radar --once`: connects
/// (retrying while the daemon starts), optionally sends a view, and returns the first frame
/// drawn with that view.
package enum FeedFrameFetcher {
    /// The first frame from the socket at `path` within `timeout` seconds. With a
    /// `viewCommand`, frames before the daemon acknowledged it are skipped.
    package static func fetch(path: String, viewCommand: String?, timeout: Double) throws(FeedClientError) -> FeedFrame
    {
        let deadline = Date().addingTimeInterval(timeout)
        var lastProblem = FeedClientError("no answer")
        while true {
            switch UnixSocket.connect(path: path) {
            case .success(let fd):
                defer { close(fd) }
                switch frame(from: fd, viewCommand: viewCommand, deadline: deadline) {
                case .success(let frame): return frame
                case .failure(let problem) where problem.kind == .refused: throw problem
                case .failure(let problem): lastProblem = problem
                }
            case .failure(let problem):
                lastProblem = problem
            }
            guard Date().addingTimeInterval(0.1) < deadline else { break }
            usleep(100_000)
        }
        throw FeedClientError(
            "no radar frame from \(path) within \(timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)) s: \(lastProblem)"
        )
    }

    private static func frame(from fd: Int32, viewCommand: String?, deadline: Date) -> Result<
        FeedFrame, FeedClientError
    > {
        if let viewCommand, !UnixSocket.write(fd, Array((viewCommand + "\n").utf8)) {
            return .failure(FeedClientError("the daemon closed the connection"))
        }
        var waitingForAcknowledgement = viewCommand != nil
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, UnixSocket.waitReadable(fd, seconds: remaining) else {
                return .failure(FeedClientError("connected, but no frame arrived"))
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .failure(FeedClientError("the daemon closed the connection")) }
            guard let lines = splitter.lines(from: buffer[0..<count]) else {
                return .failure(FeedClientError("the feed sent a line longer than \(splitter.limit) bytes"))
            }
            for line in lines where !line.isEmpty {
                switch try? FeedLine(parsing: line) {
                case .viewAcknowledged?: waitingForAcknowledgement = false
                case .error(let message)?:
                    return .failure(
                        FeedClientError(
                            "the daemon refused the view: \(TerminalText.printable(message))", kind: .refused))
                case .frame(let frame)? where !waitingForAcknowledgement: return .success(frame)
                default: continue
                }
            }
        }
    }
}
