import HummingbirdCore

/// Stops accepting while `maximum` connections are open, and counts each time a connection
/// had to wait for that. Hummingbird keeps one copy per server and calls it on the server's
/// loop.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let counters: WebCounters
    private var open = 0

    init(maximum: Int, counters: WebCounters) {
        self.maximum = maximum
        self.counters = counters
    }

    mutating func connectionOpened() {
        open += 1
        if open == maximum { counters.count { $0.connectionsDeferred += 1 } }
    }

    mutating func connectionClosed() {
        open -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        open < maximum
    }
}
