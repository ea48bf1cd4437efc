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

    private struct State: Sendable {
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
    private struct Lifecycle: Sendable {
        var stopped = false
        var looping = false
    }

    /// How long `stop` waits for the connection's thread to end: libmosquitto's loop looks
    /// for the stop at least once a second, unless a blocking reconnection holds it, which
    /// the thread then finishes on its own.
    static let stopWait = 3.0

    /// The configuration it was made with.
    package let configuration: MQTTConfiguration
    private let handle: Handle
    private let state: Mutex<State>
    /// Held from taking a message off the queue until libmosquitto has it, so that messages
    /// leave in the order they were queued whichever thread sends them.
    private let sending = Mutex(())
    private let lifecycle = Mutex(Lifecycle())
    private let birth: @Sendable () -> [MQTTMessage]
    private let onMessage: @Sendable (MQTTReceivedMessage) -> Void
    private let onEvent: @Sendable (Event) -> Void
    private let clock: @Sendable () -> Double
    /// Signalled when the connection's thread ends.
    private let loopEnded = DispatchSemaphore(value: 0)

    /// libmosquitto's client, used from the owner's threads and the connection's (which it
    /// allows once `mosquitto_threaded_set` made it thread-safe).
    private struct Handle: @unchecked Sendable {
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

    /// Sets the client up and starts connecting on libmosquitto's thread. A broker that
    /// cannot be reached yet is no error: the client keeps trying with backoff. Throws for
    /// settings libmosquitto refuses (a CA file it cannot read, a keepalive under 5 s).
    package func start() throws(MQTTError) {
        let pointer = handle.pointer
        let configuration = configuration
        func check(_ code: Int32, _ what: String) throws(MQTTError) {
            if code != MOSQ_ERR_SUCCESS.rawValue { throw MQTTError("\(what): \(Self.describe(code))") }
        }
        guard configuration.keepaliveSeconds >= 5 else { throw MQTTError("the keepalive must be at least 5 seconds") }
        mosquitto_user_data_set(pointer, Unmanaged.passUnretained(self).toOpaque())
        try check(mosquitto_threaded_set(pointer, true), "threads")
        let version = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check(mosquitto_int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, version), "protocol version")
        // Batches go out as soon as they are written: Nagle's delay only adds latency here.
        _ = mosquitto_int_option(pointer, MOSQ_OPT_TCP_NODELAY, 1)
        if let credentials = configuration.credentials {
            try check(mosquitto_username_pw_set(pointer, credentials.username, credentials.password), "credentials")
        }
        if configuration.broker.usesTLS {
            let directory = configuration.caFile == nil ? MQTTConfiguration.systemCertificateDirectory : nil
            let code = mosquitto_tls_set(pointer, configuration.caFile, directory, nil, nil, nil)
            if code != MOSQ_ERR_SUCCESS.rawValue {
                throw MQTTError(
                    "TLS: cannot use the CA certificates \(configuration.caFile ?? directory ?? ""): \(Self.describe(code))"
                )
            }
        }
        if let will = configuration.will { try setWill(will) }
        try check(
            mosquitto_reconnect_delay_set(
                pointer, UInt32(max(1, configuration.reconnectDelaySeconds)),
                UInt32(max(1, configuration.maximumReconnectDelaySeconds)), true),
            "reconnect delay")
        mosquitto_connect_callback_set(pointer, mqttClientConnected)
        mosquitto_disconnect_callback_set(pointer, mqttClientDisconnected)
        mosquitto_publish_callback_set(pointer, mqttClientPublished)
        mosquitto_message_callback_set(pointer, mqttClientReceived)
        mosquitto_subscribe_callback_set(pointer, mqttClientSubscribed)
        mosquitto_log_callback_set(pointer, mqttClientLogged)
        // The first attempt (a name lookup, a TCP connection) and then the connection run on
        // a queue of their own, so that a slow resolver never holds up the caller.
        DispatchQueue(label: "mqtt-connection").async { [self] in connectFirst() }
    }

    /// Starts connecting until an attempt gets under way, then runs the connection
    /// (`runLoop`), which reconnects from then on. (libmosquitto's loop does not retry
    /// a first attempt that failed at once, such as a refused connection, hence this.)
    private func connectFirst() {
        var delay = Double(max(1, configuration.reconnectDelaySeconds))
        while true {
            let outcome = lifecycle.withLock { lifecycle -> Int32? in
                guard !lifecycle.stopped else { return nil }
                let code = mosquitto_connect_async(
                    handle.pointer, configuration.broker.host, Int32(configuration.broker.port),
                    Int32(configuration.keepaliveSeconds))
                if code == MOSQ_ERR_SUCCESS.rawValue { lifecycle.looping = true }
                return code
            }
            guard let code = outcome else { return }
            if code == MOSQ_ERR_SUCCESS.rawValue { return runLoop() }
            state.withLock { $0.statistics.lastProblem = Self.describe(code) }
            onEvent(
                .lost("cannot connect to \(configuration.broker): \(Self.describe(code)); retrying in \(Int(delay)) s"))
            if !sleepUnlessStopped(delay) { return }
            delay = min(delay * 2, Double(max(1, configuration.maximumReconnectDelaySeconds)))
        }
    }

    /// The connection: libmosquitto's loop, started again (after a backoff that doubles while
    /// attempts fail, and starts afresh once one is accepted) whenever it gives up, until the
    /// client is stopped. Its queue keeps the client alive while it runs.
    private func runLoop() {
        let first = Double(max(1, configuration.reconnectDelaySeconds))
        var delay = first
        var connections = statistics.connections
        while true {
            let code = mosquitto_loop_forever(handle.pointer, 1_000, 1)
            if lifecycle.withLock({ $0.stopped }) { break }
            let now = statistics.connections
            if now > connections { delay = first }
            connections = now
            state.withLock { $0.statistics.lastProblem = Self.describe(code) }
            onEvent(.lost("\(Self.describe(code)); reconnecting in \(Int(delay)) s"))
            if !sleepUnlessStopped(delay) { break }
            delay = min(delay * 2, Double(max(1, configuration.maximumReconnectDelaySeconds)))
            // A failed attempt is retried by libmosquitto's loop itself (it found no connection).
            _ = mosquitto_reconnect(handle.pointer)
        }
        loopEnded.signal()
    }

    /// Waits `seconds` (of the monotonic clock: a wall clock stepped back does not lengthen
    /// it); false as soon as the client is stopped.
    private func sleepUnlessStopped(_ seconds: Double) -> Bool {
        let until = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < until {
            if lifecycle.withLock({ $0.stopped }) { return false }
            usleep(50_000)
        }
        return !lifecycle.withLock { $0.stopped }
    }

    private func setWill(_ will: MQTTMessage) throws(MQTTError) {
        let pointer = handle.pointer
        let code: Int32 = will.payload.withUnsafeBytes { bytes in
            if configuration.protocolVersion == .v5, let expiry = will.expirySeconds {
                var properties: OpaquePointer?
                mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), expiry)
                let code = mosquitto_will_set_v5(
                    pointer, will.topic, Int32(bytes.count), bytes.baseAddress,
                    Int32(will.qos), will.retain, properties)
                // On success libmosquitto owns the list; on failure it is ours to free.
                if code != MOSQ_ERR_SUCCESS.rawValue { mosquitto_property_free_all(&properties) }
                return code
            }
            return mosquitto_will_set(
                pointer, will.topic, Int32(bytes.count), bytes.baseAddress, Int32(will.qos), will.retain)
        }
        if code != MOSQ_ERR_SUCCESS.rawValue { throw MQTTError("last will: \(Self.describe(code))") }
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
    private func send(subscription filter: String) {
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
    private func flush(everything: Bool = false) {
        let limit = everything ? Int.max : configuration.maximumInFlight
        sending.withLock { _ in sendQueued(limit: limit) }
    }

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
    private func send(_ message: MQTTMessage, mid: inout Int32) -> Int32 {
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

    // MARK: libmosquitto's callbacks, on the connection's thread

    fileprivate func connected(_ code: Int32) {
        guard code == 0 else {
            // MQTT 5 reason codes start at 128; 1 to 5 are MQTT 3.1.1's return codes.
            let reason = String(cString: code >= 128 ? mosquitto_reason_string(code) : mosquitto_connack_string(code))
            state.withLock { $0.statistics.lastProblem = "refused: \(reason)" }
            onEvent(.refused(reason))
            return
        }
        // Under `sending`: a flush on another thread that sees the connection must wait until
        // the birth messages are queued, so they go out before anything else.
        let subscriptions = sending.withLock { _ in
            let subscriptions = state.withLock { state -> [String] in
                state.statistics.connected = true
                state.statistics.connections += 1
                state.inFlight = [:]
                state.doneEarly = []
                return state.subscriptions
            }
            for message in birth() {
                var mid: Int32 = 0
                _ = send(message, mid: &mid)
            }
            return subscriptions
        }
        for filter in subscriptions { send(subscription: filter) }
        onEvent(.connected)
        flush()
    }

    fileprivate func disconnected(_ code: Int32) {
        let stopping = state.withLock { state -> Bool in
            state.statistics.connected = false
            state.statistics.lostInFlight += state.inFlight.values.filter { $0 == 0 }.count
            state.inFlight = [:]
            state.doneEarly = []
            if code != 0 { state.statistics.lastProblem = Self.describe(code) }
            return state.stopped
        }
        if code != 0, !stopping { onEvent(.lost("\(Self.describe(code)); reconnecting")) }
    }

    /// The broker's answer to a subscription: a granted QoS of 128 or more is a refusal.
    fileprivate func subscribed(_ mid: Int32, granted: [Int32]) {
        let filter = state.withLock { state -> String? in
            if let filter = state.subscribing.removeValue(forKey: mid) { return filter }
            if state.answeredEarly.count >= 64 { state.answeredEarly.removeAll() }
            state.answeredEarly[mid] = granted
            return nil
        }
        if let filter { answered(filter, granted: granted) }
    }

    private func answered(_ filter: String, granted: [Int32]) {
        guard let refusal = granted.first(where: { $0 >= 128 }) else { return }
        let reason = "the broker refused it (\(String(cString: mosquitto_reason_string(refusal)).lowercased()))"
        state.withLock { $0.statistics.lastProblem = "subscribe to \(filter): \(reason)" }
        onEvent(.subscriptionRefused(filter: filter, reason: reason))
    }

    fileprivate func published(_ mid: Int32) {
        state.withLock { state in
            if state.inFlight.removeValue(forKey: mid) != nil {
                state.statistics.published += 1
            } else if state.sending > 0 {
                state.doneEarly.insert(mid)
            }
        }
        flush()
    }

    /// libmosquitto's error lines say what no result code does (a certificate that does not
    /// verify, say): the last one is kept and reported.
    fileprivate func logged(_ level: Int32, _ text: String) {
        guard level == MOSQ_LOG_ERR else { return }
        state.withLock { $0.statistics.lastProblem = text }
        onEvent(.lost("\(text); reconnecting"))
    }

    fileprivate func received(_ message: UnsafePointer<mosquitto_message>) {
        let raw = message.pointee
        guard let topicPointer = raw.topic else { return }
        let topic = String(cString: topicPointer)
        let size = Int(max(0, raw.payloadlen))
        let payload: [UInt8] =
            size > 0 && size <= configuration.maximumIncomingPayload && raw.payload != nil
            ? Array(UnsafeRawBufferPointer(start: raw.payload, count: size)) : []
        state.withLock { $0.statistics.received += 1 }
        onMessage(MQTTReceivedMessage(topic: topic, payload: payload, retained: raw.retain, size: size))
    }

    /// libmosquitto's words for a result code; for a system error, the system's.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)).lowercased() }
        if code == MOSQ_ERR_CONN_LOST.rawValue { return "the connection was lost" }
        if code == MOSQ_ERR_KEEPALIVE.rawValue { return "the broker stopped answering (keepalive)" }
        return String(cString: mosquitto_strerror(code)).lowercased()
    }
}

// C callbacks: the client is the user data libmosquitto passes back.

private func client(_ user: UnsafeMutableRawPointer?) -> MQTTClient? {
    user.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

private func mqttClientConnected(_ mosq: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ code: Int32) {
    client(user)?.connected(code)
}

private func mqttClientDisconnected(_ mosq: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ code: Int32) {
    client(user)?.disconnected(code)
}

private func mqttClientPublished(_ mosq: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ mid: Int32) {
    client(user)?.published(mid)
}

private func mqttClientSubscribed(
    _ mosq: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ mid: Int32,
    _ count: Int32, _ granted: UnsafePointer<Int32>?
) {
    let qos = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
    client(user)?.subscribed(mid, granted: qos)
}

private func mqttClientLogged(
    _ mosq: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ level: Int32,
    _ text: UnsafePointer<CChar>?
) {
    guard let text else { return }
    client(user)?.logged(level, String(cString: text))
}

private func mqttClientReceived(
    _ mosq: OpaquePointer?, _ user: UnsafeMutableRawPointer?,
    _ message: UnsafePointer<mosquitto_message>?
) {
    guard let message else { return }
    client(user)?.received(message)
}
