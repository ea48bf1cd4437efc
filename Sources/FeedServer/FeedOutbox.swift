/// One client's bounded queue of lines waiting to be written: short control lines (hello,
/// acknowledgements, errors) in order, and at most one radar frame, which a newer frame
/// replaces. At most one frame is handed to the socket at a time, so a slow reader costs the
/// server one frame in flight and one waiting, however far behind it is.
///
/// A client counts as behind from the moment a new frame arrives while the previous one is
/// still being written; it counts as draining again as soon as a frame write completes. A
/// client behind for longer than the stall timeout has stopped reading and is let go.
struct FeedOutbox<Line> {
    /// What the channel should write next.
    enum Write {
        case control(Line)
        case frame(Line)
    }

    /// What happened to an offered frame.
    enum FrameOffer: Equatable {
        /// Queued; it replaced an unsent frame when `replaced` is true.
        case queued(replaced: Bool)
        /// The client has not drained anything for longer than the stall timeout.
        case stalled
    }

    /// Most control lines waiting before the client is considered flooded: a client that
    /// sends commands without reading the answers is not served further.
    static var maxControlLines: Int { 32 }

    /// Seconds a client may stay behind before it is disconnected.
    let stallTimeout: Double
    private(set) var controls: [Line] = []
    private(set) var frame: Line?
    private(set) var frameInFlight = false
    private(set) var behindSince: Double?

    init(stallTimeout: Double) {
        self.stallTimeout = stallTimeout
    }

    /// Queues a control line; false when too many are already waiting.
    mutating func offerControl(_ line: Line) -> Bool {
        guard controls.count < Self.maxControlLines else { return false }
        controls.append(line)
        return true
    }

    /// Queues a frame at monotonic time `now` (seconds), replacing any frame not yet written.
    mutating func offerFrame(_ line: Line, now: Double) -> FrameOffer {
        let replaced = frame != nil
        frame = line
        if frameInFlight || replaced {
            if let since = behindSince {
                if now - since > stallTimeout { return .stalled }
            } else {
                behindSince = now
            }
        }
        return .queued(replaced: replaced)
    }

    /// The next line to write, if the channel can take it: controls first, then the frame
    /// when none is in flight. Nothing while the channel is over its high-water mark.
    mutating func nextWrite(writable: Bool) -> Write? {
        guard writable else { return nil }
        if !controls.isEmpty { return .control(controls.removeFirst()) }
        if !frameInFlight, let line = frame {
            frame = nil
            frameInFlight = true
            return .frame(line)
        }
        return nil
    }

    /// The frame in flight has reached the socket: the client is draining.
    mutating func frameWritten() {
        frameInFlight = false
        behindSince = nil
    }

    /// Whether anything is waiting.
    var hasPending: Bool { !controls.isEmpty || (frame != nil && !frameInFlight) }
}
