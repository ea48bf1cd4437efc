/// One message to publish: topic, payload, quality of service, whether the broker keeps it
/// for later subscribers, and how long it stays worth delivering.
package struct MQTTMessage: Sendable, Equatable {
    /// Topic, e.g. "aviator/home/status".
    package var topic: String
    /// Payload bytes (empty: with `retain`, clears the topic's retained message).
    package var payload: [UInt8]
    /// Quality of service: 0 (at most once) or 1 (at least once).
    package var qos: Int
    /// Whether the broker keeps it as the topic's last known value.
    package var retain: Bool
    /// Seconds the message stays worth delivering. Sent as the MQTT 5 message expiry
    /// interval (the broker discards it, retained or queued, once it has passed); a message
    /// still waiting in the client's own queue after that long is dropped there too.
    package var expirySeconds: UInt32?

    /// A message from its parts.
    package init(topic: String, payload: [UInt8], qos: Int = 0, retain: Bool = false, expirySeconds: UInt32? = nil) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.expirySeconds = expirySeconds
    }

    /// A message whose payload is `text` in UTF-8.
    package init(topic: String, text: String, qos: Int = 0, retain: Bool = false, expirySeconds: UInt32? = nil) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain, expirySeconds: expirySeconds)
    }
}

/// One message the broker delivered to a subscription.
package struct MQTTReceivedMessage: Sendable {
    /// The topic it was published on.
    package var topic: String
    /// Its payload.
    package var payload: [UInt8]
    /// Whether it is a retained message (a last known value sent on subscribing).
    package var retained: Bool
    /// The payload's size as published: more than `payload.count` (which is then empty) for
    /// one over `MQTTConfiguration.maximumIncomingPayload`.
    package var size: Int

    /// A received message from its parts; `size` is the payload's unless told otherwise.
    package init(topic: String, payload: [UInt8], retained: Bool, size: Int? = nil) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.size = size ?? payload.count
    }

    /// Whether the payload was over the limit and not kept.
    package var isOversized: Bool { size > payload.count }
}
