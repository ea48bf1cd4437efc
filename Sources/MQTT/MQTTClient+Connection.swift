import CMosquitto
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection's life: setting libmosquitto up, the first attempt and the loop that
/// reconnects with backoff until the client is stopped.
extension MQTTClient {
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
        installCallbacks()
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

    /// Sets the last will the broker publishes when the connection is lost without a goodbye.
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
}
