import CMosquitto
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An MQTT client on libmosquitto: connects (plain or TLS, MQTT 3.1.1 or 5), keeps the
/// connection alive and re-establishes it with exponential backoff, publishes through a
/// bounded queue, and delivers the messages of its subscriptions to a callback.
///
/// The connection runs on a thread of its own (libmosquitto's `mosquitto_loop_forever`), so
/// neither publishing nor a slow broker ever blocks the caller: `publish` only queues
/// (`MQTTOutbox`), and at most `maximumInFlight` messages are in libmosquitto's hands at a
/// time. While the broker is away, messages wait in the queue, the oldest making room for the
/// newest; QoS 0 messages libmosquitto held when the connection dropped are lost and counted.
///
/// libmosquitto's loop reconnects by itself after most losses but gives up for good on those
/// it takes for fatal: an MQTT 5 refusal (bad credentials, not authorised, server busy), a
/// protocol or TLS error. The client's thread then starts it again after the same backoff,
/// so a broker that is set right (or a peer that stops misbehaving) is joined without a
/// restart.
///
/// On every connection (the first and each reconnection) the client publishes its `birth`
/// messages before anything queued (a retained "online" status, say, after a broker restart
/// that forgot it), then subscribes again to its topics. Messages arrive on libmosquitto's
/// thread: the callback must be quick.
///
/// Call `stop()` before letting go of the client.
package final class MQTTClient: Sendable {
    /// What the client knows, shared between the owner's threads and libmosquitto's.
    struct State: Sendable {
        var outbox: MQTTOutbox
        var statistics = Statistics()
        /// Message ids libmosquitto holds, with their QoS.
        var inFlight: [Int32: Int] = [:]
        /// Ids libmosquitto reported done before `publish` returned them to us.
        var doneEarly: Set<Int32> = []
        /// Publishes under way in another thread that have no id yet.
        var sending = 0
        var subscriptions: [String] = []
        /// Subscriptions sent and not yet answered, by message id.
        var subscribing: [Int32: String] = [:]
        /// Answers that came before `mosquitto_subscribe` returned their id (few: kept at most
        /// 64).
        var answeredEarly: [Int32: [Int32]] = [:]
        var stopped = false
    }

    /// Whether the client was stopped and whether the connection's thread runs (from the
    /// first connection attempt that got under way): held across starting that thread, so
    /// that stopping never misses it. Apart from `state`, which libmosquitto's callbacks take.
    struct Lifecycle: Sendable {
        var stopped = false
        var looping = false
    }

    /// How long `stop` waits for the connection's thread to end: libmosquitto's loop looks
    /// for the stop at least once a second, unless a blocking reconnection holds it, which
    /// the thread then finishes on its own.
    static let stopWait = 3.0

    /// The configuration it was made with.
    package let configuration: MQTTConfiguration
    /// libmosquitto's client.
    let handle: Handle
    /// The queue, the counters and the bookkeeping of messages and subscriptions under way.
    let state: Mutex<State>
    /// Held from taking a message off the queue until libmosquitto has it, so that messages
    /// leave in the order they were queued whichever thread sends them.
    let sending = Mutex(())
    /// Whether the client was stopped and the connection's thread runs.
    let lifecycle = Mutex(Lifecycle())
    /// The messages to publish on every connection.
    let birth: @Sendable () -> [MQTTMessage]
    /// Hears the subscriptions' messages.
    let onMessage: @Sendable (MQTTReceivedMessage) -> Void
    /// Hears the connection's changes.
    let onEvent: @Sendable (Event) -> Void
    private let clock: @Sendable () -> Double
    /// Signalled when the connection's thread ends.
    let loopEnded = DispatchSemaphore(value: 0)

    /// libmosquitto's client, used from the owner's threads and the connection's (which it
    /// allows once `mosquitto_threaded_set` made it thread-safe).
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// libmosquitto wants one initialisation per process before any client.
    private static let library: Bool = {
        mosquitto_lib_init()
        return true
    }()

    /// A client for `configuration`, not yet connected. `birth` gives the messages to publish
    /// on every connection, `onMessage` hears the subscriptions' messages and `onEvent` the
    /// connection's changes (both on libmosquitto's thread); `clock` (seconds since 1970)
    /// times the queue's expiry.
    package init(
        configuration: MQTTConfiguration, birth: @escaping @Sendable () -> [MQTTMessage] = { [] },
        onMessage: @escaping @Sendable (MQTTReceivedMessage) -> Void = { _ in },
        onEvent: @escaping @Sendable (Event) -> Void = { _ in },
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws(MQTTError) {
        _ = Self.library
        guard let pointer = mosquitto_new(configuration.clientID, true, nil) else {
            throw MQTTError("cannot create an MQTT client (out of memory?)")
        }
        self.configuration = configuration
        handle = Handle(pointer: pointer)
        state = Mutex(
            State(
                outbox: MQTTOutbox(
                    capacity: configuration.outboxCapacity,
                    byteCapacity: configuration.outboxByteCapacity)))
        self.birth = birth
        self.onMessage = onMessage
        self.onEvent = onEvent
        self.clock = clock
    }

    deinit {
        stop()
        mosquitto_destroy(handle.pointer)
    }

    /// Subscribes to `filter` (MQTT wildcards `+` and `#` allowed), now if connected and again
    /// on every reconnection.
    package func subscribe(_ filter: String) {
        let connected = state.withLock { state in
            state.subscriptions.append(filter)
            return state.statistics.connected
        }
        if connected { send(subscription: filter) }
    }

    /// Sends the subscription to `filter`; a refusal by libmosquitto is reported at once, one
    /// by the broker when its answer comes (`subscribed`).
    func send(subscription filter: String) {
        var mid: Int32 = 0
        let code = mosquitto_subscribe(handle.pointer, &mid, filter, 0)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            state.withLock { $0.statistics.lastProblem = "subscribe to \(filter): \(Self.describe(code))" }
            onEvent(.subscriptionRefused(filter: filter, reason: Self.describe(code)))
            return
        }
        let early = state.withLock { state -> [Int32]? in
            if let granted = state.answeredEarly.removeValue(forKey: mid) { return granted }
            state.subscribing[mid] = filter
            return nil
        }
        if let early { answered(filter, granted: early) }
    }

    /// Queues `message` for the broker; never blocks. It leaves at once when the connection
    /// has room, else when the broker catches up or comes back (or is dropped from the
    /// bounded queue, counted, if that takes too long).
    package func publish(_ message: MQTTMessage) {
        let now = clock()
        state.withLock { $0.outbox.push(message, at: now) }
        flush()
    }

    /// What the client has done so far.
    package var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.outbox = state.outbox.counters
            statistics.waiting = state.outbox.count
            return statistics
        }
    }

    /// Whether the client is connected now.
    package var isConnected: Bool { state.withLock { $0.statistics.connected } }

    /// Hands queued messages to libmosquitto while connected and it holds fewer than
    /// `maximumInFlight` (all of them with `everything`).
    func flush(everything: Bool = false) {
        let limit = everything ? Int.max : configuration.maximumInFlight
        sending.withLock { _ in sendQueued(limit: limit) }
    }

    /// Takes messages off the queue and hands them to libmosquitto, oldest first, until it
    /// holds `limit`, the queue is empty or the connection is gone.
    private func sendQueued(limit: Int) {
        while true {
            let now = clock()
            let next = state.withLock { state -> (message: MQTTMessage, queuedAt: Double)? in
                guard state.statistics.connected, state.inFlight.count + state.sending < limit,
                    let next = state.outbox.pop(at: now)
                else { return nil }
                state.sending += 1
                return next
            }
            guard let (message, queuedAt) = next else { return }
            var mid: Int32 = 0
            let code = send(message, mid: &mid)
            state.withLock { state in
                state.sending -= 1
                if code == MOSQ_ERR_SUCCESS.rawValue {
                    if state.doneEarly.remove(mid) != nil {
                        state.statistics.published += 1
                    } else {
                        state.inFlight[mid] = message.qos
                    }
                } else if code == MOSQ_ERR_NO_CONN.rawValue {
                    // The connection went between the check and the call: it waits for the next.
                    state.outbox.pushBack(message, queuedAt: queuedAt)
                } else {
                    state.statistics.refused += 1
                    state.statistics.lastProblem = "publish to \(message.topic): \(Self.describe(code))"
                }
            }
            if code == MOSQ_ERR_NO_CONN.rawValue { return }
        }
    }

    /// Publishes `message` through libmosquitto now; its result code.
    func send(_ message: MQTTMessage, mid: inout Int32) -> Int32 {
        let pointer = handle.pointer
        let v5 = configuration.protocolVersion == .v5
        return message.payload.withUnsafeBytes { bytes in
            if v5, let expiry = message.expirySeconds {
                var properties: OpaquePointer?
                mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), expiry)
                defer { mosquitto_property_free_all(&properties) }
                return mosquitto_publish_v5(
                    pointer, &mid, message.topic, Int32(bytes.count), bytes.baseAddress,
                    Int32(message.qos), message.retain, properties)
            }
            return mosquitto_publish(
                pointer, &mid, message.topic, Int32(bytes.count), bytes.baseAddress,
                Int32(message.qos), message.retain)
        }
    }

    /// Hands over what is still queued (while connected), publishes `farewell` (a retained
    /// "offline", say: a clean disconnection does not trigger the will), disconnects and
    /// ends the connection's thread (waiting `stopWait` at most). Later calls do nothing.
    package func stop(farewell: [MQTTMessage] = []) {
        let wasRunning = lifecycle.withLock { lifecycle -> Bool in
            defer { lifecycle.stopped = true }
            return lifecycle.looping && !lifecycle.stopped
        }
        state.withLock { $0.stopped = true }
        guard wasRunning else { return }
        if isConnected {
            flush(everything: true)
            for message in farewell {
                var mid: Int32 = 0
                _ = send(message, mid: &mid)
            }
        }
        // The disconnection follows the queued packets out; the thread ends after it.
        mosquitto_disconnect(handle.pointer)
        _ = loopEnded.wait(timeout: .now() + Self.stopWait)
        state.withLock { $0.statistics.connected = false }
    }

    /// libmosquitto's words for a result code; for a system error, the system's.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)).lowercased() }
        if code == MOSQ_ERR_CONN_LOST.rawValue { return "the connection was lost" }
        if code == MOSQ_ERR_KEEPALIVE.rawValue { return "the broker stopped answering (keepalive)" }
        return String(cString: mosquitto_strerror(code)).lowercased()
    }
}
