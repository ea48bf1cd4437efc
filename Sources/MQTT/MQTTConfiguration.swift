/// How an `MQTTClient` connects and behaves: the broker, who it is, the protocol version,
/// how often it proves it is alive, how it backs off, its last will and its queue.
package struct MQTTConfiguration: Sendable {
    /// The MQTT protocol versions the client speaks.
    package enum ProtocolVersion: String, Sendable, CaseIterable {
        /// MQTT 3.1.1: every broker speaks it; no message expiry.
        case v311 = "3.1.1"
        /// MQTT 5: message expiry and reason codes.
        case v5 = "5"
    }

    /// The broker.
    package var broker: MQTTBroker
    /// The client identifier; unique per connection on a broker (a second client with the
    /// same identifier disconnects the first).
    package var clientID: String
    /// The protocol version.
    package var protocolVersion: ProtocolVersion = .v5
    /// Seconds between keepalive pings when idle (at least 5, libmosquitto's minimum). The
    /// broker declares the client gone, and publishes its will, after 1.5 times this.
    package var keepaliveSeconds = 30
    /// User name and password, when the broker wants them.
    package var credentials: MQTTCredentials?
    /// A file of PEM CA certificates to trust for TLS; nil trusts the system's
    /// (`systemCertificateDirectory`).
    package var caFile: String?
    /// The message the broker publishes when the client disappears without saying goodbye.
    package var will: MQTTMessage?
    /// Seconds before the first reconnection attempt; doubled after each failure up to
    /// `maximumReconnectDelaySeconds`.
    package var reconnectDelaySeconds = 1
    /// The longest wait between reconnection attempts.
    package var maximumReconnectDelaySeconds = 30
    /// Messages the queue holds while the broker is slow or away (`MQTTOutbox`).
    package var outboxCapacity = 4096
    /// Payload bytes the queue holds.
    package var outboxByteCapacity = 8 << 20
    /// Messages handed to libmosquitto and not yet written (QoS 0) or acknowledged (QoS 1):
    /// beyond this they wait in the bounded queue, so libmosquitto's own unbounded queue never
    /// grows behind a slow broker.
    package var maximumInFlight = 64
    /// Received payloads larger than this are not copied: the message comes with an empty
    /// payload and its `size`, for the owner to count (libmosquitto itself has read it whole,
    /// but it is not held twice).
    package var maximumIncomingPayload = 1 << 20

    /// The system's CA certificates (Debian's ca-certificates), used for TLS without `caFile`.
    package static let systemCertificateDirectory = "/etc/ssl/certs"

    /// A configuration for `broker` with identifier `clientID` and the defaults above.
    package init(broker: MQTTBroker, clientID: String) {
        self.broker = broker
        self.clientID = clientID
    }
}
