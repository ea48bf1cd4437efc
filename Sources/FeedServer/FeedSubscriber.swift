import FeedProtocol
import NIOCore

/// A client the hub sends frames to, whatever carries them: a Unix-socket connection
/// (`FeedClientHandler`) or a session of another transport such as a WebSocket
/// (`FeedSession`). The hub calls it on its event loop only.
protocol FeedSubscriber: AnyObject {
    /// The view the client's frames are rendered for.
    var view: RadarView { get }
    /// A new frame line (ending in a newline) at monotonic time `now` (seconds).
    func deliver(frame: ByteBuffer, now: Double)
    /// Ends the client: the server is shutting down.
    func close()
}
