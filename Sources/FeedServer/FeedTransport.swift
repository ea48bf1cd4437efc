/// What carries one feed client's lines, as its `FeedClient` sees it: a Unix-socket connection
/// (`UnixSocketTransport`) or a session of a transport that writes one message at a time,
/// such as the WebSocket (`FeedSession`). The client calls it on the feed's event loop only;
/// the transport owns its client, the client holds its transport weakly.
protocol FeedTransport: AnyObject {
    /// Lines wait in the client's outbox: write what it releases (`FeedClient.nextWrite`).
    func linesWaiting()
    /// Ends the connection: the client broke a rule, or the server is stopping. The
    /// transport tells its client `left()` once the connection is gone.
    func close()
}
