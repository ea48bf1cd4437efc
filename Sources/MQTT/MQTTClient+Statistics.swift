/// What a client reports to its owner: its counters, and the changes of its connection.
extension MQTTClient {
    /// What the client has done so far.
    package struct Statistics: Sendable, Equatable {
        /// Whether the client is connected now.
        package var connected = false
        /// Connections the broker accepted.
        package var connections = 0
        /// Messages written to the broker (QoS 0) or acknowledged by it (QoS 1).
        package var published = 0
        /// QoS 0 messages in libmosquitto's hands when the connection dropped: lost.
        package var lostInFlight = 0
        /// Messages libmosquitto refused (a malformed topic, an oversized payload).
        package var refused = 0
        /// Messages received on the subscriptions.
        package var received = 0
        /// The queue's counters: queued, dropped when full, superseded, expired.
        package var outbox = MQTTOutbox.Counters()
        /// Messages waiting in the queue now.
        package var waiting = 0
        /// Why the last connection ended or could not be made, when it did.
        package var lastProblem: String?

        /// Nothing yet.
        package init() {}

        /// "connected, 3 connections, 120 published, 0 dropped (queue full), …": for the
        /// statistics line.
        package var summary: String {
            (connected ? "connected" : "disconnected") + ", \(connections) connections, \(published) published, "
                + "\(outbox.dropped) dropped (queue full), \(outbox.expired) expired, \(lostInFlight) lost on disconnect, "
                + "\(waiting) waiting"
        }
    }

    /// A change of the connection, for the owner's log.
    package enum Event: Sendable, Equatable {
        /// The broker accepted the connection.
        case connected
        /// The broker refused the connection (its reason: bad credentials, say).
        case refused(String)
        /// The connection ended unexpectedly, or could not be made: its reason and what the
        /// client does next ("…; reconnecting", "…; retrying in 4 s"), one line's end.
        case lost(String)
        /// A subscription was refused: by libmosquitto (a filter it cannot send) or by the
        /// broker (its access rules); the filter and why.
        case subscriptionRefused(filter: String, reason: String)
    }
}
