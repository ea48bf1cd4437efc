import FeedProtocol
import FoundationEssentials
import Logging
import MQTT
import ModeS
import Pipeline
import ReceiverNetwork
import ServiceLifecycle
import SkyProjection
import Synchronization
import Tracking

/// Publishes this receiver to an MQTT broker (`--mqtt`), under `aviator/NAME/` (see
/// `ReceiverTopics`): its frames in Beast batches a few times a second, each aircraft's state
/// (retained, at most once a second, cleared when it expires), its status (`online`, and
/// `offline` as the last will) and where it is; optionally Home Assistant sensors.
///
/// The pipeline's tap only appends to the batcher and the tracker's listener notes the aircraft's state, under
/// a lock held for microseconds; encoding and publishing happen on this service's task, and
/// the MQTT client only queues (bounded): a slow or absent broker never slows reception.
///
/// Frames that came from the network (`mqtt NAME` sources) and multilateration results are
/// not published: the first would circle between receivers, the second were never received.
package final class MQTTPublisher: Service, Sendable {
    /// What to publish and how often.
    package struct Configuration: Sendable {
        /// The client's settings (its will is set by the publisher).
        package var mqtt: MQTTConfiguration
        /// The receiver's name in the network.
        package var name: String
        /// The program and version, e.g. "aviator-adsb 1.0".
        package var version: String
        /// The receiver's position and height, when known.
        package var observer: Observer?
        /// Seconds between frame batches.
        package var batchInterval = 0.25
        /// Shortest time between two messages about one aircraft, seconds.
        package var aircraftInterval = 1.0
        /// The MQTT 5 message expiry of aircraft messages, seconds.
        package var aircraftExpiry: UInt32 = 60
        /// Whether to announce and update Home Assistant sensors.
        package var homeAssistant = false
        /// Seconds between updates of the sensors (and checks of the announced sources).
        package var sensorInterval = 5.0
        /// The radar's range, km: the sensors count aircraft within it.
        package var rangeKm = 50.0

        /// A configuration with the defaults above.
        package init(mqtt: MQTTConfiguration, name: String, version: String, observer: Observer?) {
            self.mqtt = mqtt
            self.name = name
            self.version = version
            self.observer = observer
        }
    }

    private struct Pending: Sendable {
        var batcher: BeastBatcher
        var aircraft: AircraftPublications
        var aircraftMessages = 0
        var expiredMessages = 0
    }

    /// The settings.
    package let configuration: Configuration
    /// The receiver's topics.
    package let topics: ReceiverTopics
    private let tracker: LiveTracker
    private let pipeline: FramePipeline
    private let client: MQTTClient
    private let logger: Logger
    private let pending: Mutex<Pending>
    /// The sources the last announcement named, shared with the client's birth messages.
    private final class Announced: Sendable {
        let sources = Mutex("")
    }

    private let announced = Announced()
    private let sensors: HomeAssistantSensors?

    /// A publisher of `pipeline`'s frames and `tracker`'s aircraft with `configuration`; it
    /// taps both at once and connects when run. Throws for client settings libmosquitto
    /// refuses.
    package init(
        configuration: Configuration, pipeline: FramePipeline, tracker: LiveTracker, logger: Logger
    ) throws(MQTTError) {
        self.configuration = configuration
        self.tracker = tracker
        self.pipeline = pipeline
        self.logger = logger
        let topics = ReceiverTopics(name: configuration.name)
        self.topics = topics
        pending = Mutex(
            Pending(
                batcher: BeastBatcher(interval: configuration.batchInterval),
                aircraft: AircraftPublications(minimumInterval: configuration.aircraftInterval)))
        let sensors =
            configuration.homeAssistant
            ? HomeAssistantSensors(
                topics: topics, version: configuration.version, observer: configuration.observer,
                rangeKm: configuration.rangeKm)
            : nil
        self.sensors = sensors
        var mqtt = configuration.mqtt
        mqtt.will = MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true)
        let announced = self.announced
        let announcement = { @Sendable () -> MQTTMessage in
            let sources = pipeline.source
            announced.sources.withLock { $0 = sources }
            return Self.announcement(configuration, topics: topics, sources: sources)
        }
        let label = "mqtt-out \(mqtt.broker.endpoint)"
        client = try MQTTClient(
            configuration: mqtt,
            birth: {
                // Every connection, so that a broker that restarted without its retained
                // messages learns them again.
                [MQTTMessage(topic: topics.status, text: "online", qos: 1, retain: true), announcement()]
                    + (sensors?.discoveryMessages ?? [])
            },
            onEvent: { event in
                switch event {
                case .connected: logger.info("\(label): connected, publishing as \(topics.prefix)")
                case .refused(let reason): logger.warning("\(label): the broker refused the connection: \(reason)")
                case .lost(let reason): logger.warning("\(label): \(reason)")
                case .subscriptionRefused(let filter, let reason):
                    logger.warning("\(label): cannot subscribe to \(filter): \(reason)")
                }
            })
        // What this receiver heard itself: never multilateration results (computed, not
        // heard) nor what other receivers of the network sent.
        pipeline.addTap { [self] decoded in
            guard !decoded.frame.isMultilaterated, !ReceiverName.isNetworkSource(decoded.source) else { return }
            self.pending.withLock { $0.batcher.add(decoded.frame) }
        }
        tracker.addFrameListener { [self] update in
            guard let frame = update.frame, !frame.isMultilaterated, !ReceiverName.isNetworkSource(update.source) else {
                return
            }
            self.pending.withLock { $0.aircraft.update(update.aircraft) }
        }
    }

    /// Connects and publishes until cancelled (or a graceful shutdown); then publishes what
    /// is left, says `offline` and disconnects.
    package func run() async throws {
        try client.start()
        await cancelWhenGracefulShutdown { await self.publishRegularly() }
        publishDue(at: tracker.now, final: true)
        client.stop(farewell: [MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true)])
        logger.info("stopped: \(summary)")
    }

    private func publishRegularly() async {
        var lastSensors = -Double.infinity
        while !Task.isCancelled {
            let now = tracker.now
            publishDue(at: now, final: false)
            // Due after the interval, or at once when the wall clock stepped back.
            if !(0..<configuration.sensorInterval).contains(now - lastSensors) {
                lastSensors = now
                publishSlowly(at: now)
            }
            do { try await Task.sleep(for: .milliseconds(Int(configuration.batchInterval * 1000))) } catch { return }
        }
    }

    /// Publishes the batches and aircraft due at `now` (everything waiting when `final`).
    func publishDue(at now: Double, final: Bool) {
        let (batches, due) = pending.withLock { pending in
            (pending.batcher.take(at: final ? .infinity : now), pending.aircraft.due(at: now))
        }
        for payload in batches { client.publish(MQTTMessage(topic: topics.beast, payload: payload)) }
        for state in due.states {
            let json = FeedAircraft(tracked: state, now: now).trackedJSON
            client.publish(
                MQTTMessage(
                    topic: topics.aircraft(AircraftPublications.topicName(of: state)), text: json,
                    retain: true, expirySeconds: configuration.aircraftExpiry))
        }
        for name in due.expired {
            client.publish(MQTTMessage(topic: topics.aircraft(name), payload: [], retain: true))
        }
        if !due.states.isEmpty || !due.expired.isEmpty {
            pending.withLock {
                $0.aircraftMessages += due.states.count
                $0.expiredMessages += due.expired.count
            }
        }
    }

    /// The sensors' state, and the announcement again when the sources changed.
    private func publishSlowly(at now: Double) {
        let sources = pipeline.source
        if announced.sources.withLock({ $0 }) != sources, client.isConnected {
            announced.sources.withLock { $0 = sources }
            client.publish(Self.announcement(configuration, topics: topics, sources: sources))
        }
        if let sensors {
            let snapshot = tracker.snapshot()
            client.publish(
                MQTTMessage(
                    topic: topics.sensors, text: sensors.state(of: snapshot.aircraft, now: snapshot.time),
                    retain: true, expirySeconds: 60))
        }
    }

    /// The retained message saying where the receiver is (rounded), what it runs and what
    /// feeds it.
    private static func announcement(_ configuration: Configuration, topics: ReceiverTopics, sources: String)
        -> MQTTMessage
    {
        let position = configuration.observer.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let text = ReceiverAnnouncement(position: position, version: configuration.version, sources: sources).json
        return MQTTMessage(topic: topics.receiver, text: text, qos: 1, retain: true)
    }

    /// The client's counters.
    package var clientStatistics: MQTTClient.Statistics { client.statistics }

    /// Items dropped by each of its bounded queues so far: frames before batching, and
    /// messages the client's queue had no room for (for /metrics).
    package var queueDrops: [(queue: String, dropped: Int)] {
        let batcher = pending.withLock { $0.batcher.dropped }
        return [("mqtt_batcher", batcher), ("mqtt_outbox", client.statistics.outbox.dropped)]
    }

    /// The publisher's counters for the statistics line: "mqtt-out HOST:PORT as NAME:
    /// 120 batches (2400 frames), 30 aircraft messages, …, connected, …".
    package var summary: String {
        let (batches, frames, dropped, aircraft, expired, unscheduled) = pending.withLock {
            (
                $0.batcher.batches, $0.batcher.frames, $0.batcher.dropped, $0.aircraftMessages, $0.expiredMessages,
                $0.aircraft.dropped
            )
        }
        return
            "mqtt-out \(configuration.mqtt.broker.endpoint) as \(configuration.name): \(batches) batches (\(frames) frames, "
            + "\(dropped) dropped before batching), \(aircraft) aircraft messages, \(expired) expired, "
            + (unscheduled > 0 ? "\(unscheduled) updates of aircraft over the limit, " : "")
            + client.statistics.summary
    }
}
