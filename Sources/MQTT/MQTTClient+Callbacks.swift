import CMosquitto
import Synchronization

/// libmosquitto's callbacks, on the connection's thread: connections made and lost,
/// messages delivered and received, subscriptions answered, error lines logged.
extension MQTTClient {
    /// Registers the C callbacks below with libmosquitto; they find the client again through
    /// the user data `start` set.
    func installCallbacks() {
        let pointer = handle.pointer
        mosquitto_connect_callback_set(pointer, mqttClientConnected)
        mosquitto_disconnect_callback_set(pointer, mqttClientDisconnected)
        mosquitto_publish_callback_set(pointer, mqttClientPublished)
        mosquitto_message_callback_set(pointer, mqttClientReceived)
        mosquitto_subscribe_callback_set(pointer, mqttClientSubscribed)
        mosquitto_log_callback_set(pointer, mqttClientLogged)
    }

    /// The broker's answer to a connection: on acceptance, the birth messages first, then the
    /// subscriptions again, then whatever waits in the queue.
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

    /// The connection ended: QoS 0 messages libmosquitto still held are counted as lost.
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

    /// Reports a refusal among the QoS levels the broker `granted` for `filter`.
    func answered(_ filter: String, granted: [Int32]) {
        guard let refusal = granted.first(where: { $0 >= 128 }) else { return }
        let reason = "the broker refused it (\(String(cString: mosquitto_reason_string(refusal)).lowercased()))"
        state.withLock { $0.statistics.lastProblem = "subscribe to \(filter): \(reason)" }
        onEvent(.subscriptionRefused(filter: filter, reason: reason))
    }

    /// libmosquitto delivered message `mid` (QoS 0) or the broker acknowledged it (QoS 1):
    /// counted, and room made for the next in the queue.
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

    /// A message of a subscription, handed to `onMessage` (its payload left out when over
    /// `maximumIncomingPayload`).
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
