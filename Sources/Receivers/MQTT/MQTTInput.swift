import FoundationEssentials
import Logging
import MQTT
import ModeS
import Pipeline
import ReceiverNetwork
import Support
import Synchronization

/// Gathers the frames other receivers publish to an MQTT broker (`aviator/NAME/beast`, see
/// `ReceiverTopics`): each receiver becomes a source of its own, labelled "mqtt NAME", with
/// its own counters, and its frames are positioned from where it says it is (its retained
/// `aviator/NAME/receiver`).
///
/// Messages arrive on the MQTT client's thread and go straight into the pipeline: reading a
/// batch is a few microseconds a frame. Anything malformed or oversized is dropped whole and
/// counted against the receiver it came from, with at most one log line every 10 s.
package final class MQTTInput: Source {
    /// "mqtt", the radar's source name while the network feeds it.
    package let name = "mqtt"
    /// The MQTT client's settings.
    package let configuration: MQTTConfiguration
    /// The subscription filter for frame batches, e.g. "aviator/+/beast".
    package let filter: String
    private let logger: Logger
    private let receivers: Mutex<RemoteReceivers>
    private let problems = Mutex(LogThrottle(interval: .seconds(10)))
    /// Breaks in batch numbers and status changes, at most 10 lines of each every 10 s: a
    /// receiver flapping, or two publishing under one name, would otherwise write a line per
    /// batch.
    private let gaps = Mutex(LogThrottle(interval: .seconds(10), burst: 10))
    private let statusChanges = Mutex(LogThrottle(interval: .seconds(10), burst: 10))
    /// Receivers giving way to new ones in a full table, and announced positions that
    /// changed: one line every 10 s each, since a flood of made-up names or announcements
    /// would otherwise write a line per message.
    private let displacements = Mutex(LogThrottle(interval: .seconds(10)))
    private let moves = Mutex(LogThrottle(interval: .seconds(10), burst: 10))
    /// Announcements contradicted by the receiver's own frames: one line a minute.
    private let contradictions = Mutex(LogThrottle(interval: .seconds(60)))
    private let client = Mutex<MQTTClient?>(nil)

    /// "mqtt-in HOST:PORT".
    package var label: String { "mqtt-in \(configuration.broker.endpoint)" }

    /// An input subscribing to `filter` (and the matching receiver announcements and status)
    /// at the broker of `configuration`, ignoring the receiver called `ownName` (this daemon,
    /// when it also publishes).
    package init(
        configuration: MQTTConfiguration, filter: String = ReceiverTopics.defaultBeastFilter,
        ownName: String?, logger: Logger
    ) {
        var configuration = configuration
        // Nothing larger is read: it is counted as oversized without being copied.
        configuration.maximumIncomingPayload = max(BeastBatch.maximumPayload, ReceiverAnnouncement.maximumPayload)
        self.configuration = configuration
        self.filter = filter
        self.logger = logger
        receivers = Mutex(RemoteReceivers(ownName: ownName))
    }

    /// Connects and feeds `sink` until the task is cancelled; the client reconnects by
    /// itself whenever the broker goes away.
    package func run(into sink: any FrameSink) async throws {
        let label = self.label
        let logger = self.logger
        let mqtt: MQTTClient
        do {
            mqtt = try MQTTClient(
                configuration: configuration,
                onMessage: { [self] message in
                    handle(message, into: sink)
                },
                onEvent: { event in
                    switch event {
                    case .connected: logger.info("\(label): connected")
                    case .refused(let reason): logger.warning("\(label): the broker refused the connection: \(reason)")
                    case .lost(let reason): logger.warning("\(label): \(reason)")
                    case .subscriptionRefused(let filter, let reason):
                        logger.warning("\(label): cannot subscribe to \(filter): \(reason)")
                    }
                })
            mqtt.subscribe(filter)
            mqtt.subscribe(ReceiverTopics.receiverFilter(forBeastFilter: filter))
            mqtt.subscribe(String(filter.dropLast(ReceiverTopics.beastLevel.count)) + "status")
            try mqtt.start()
        } catch {
            throw MQTTInputError(description: "\(label): \(error)")
        }
        client.withLock { $0 = mqtt }
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(3600)) } catch { break }
        }
        mqtt.stop()
    }

    /// Reads one message into `sink`, received now.
    func handle(_ message: MQTTReceivedMessage, into sink: any FrameSink) {
        handle(message, into: sink, at: Date().timeIntervalSince1970, instant: .now)
    }

    /// Reads one message into `sink`, received at `now` (seconds since 1970; `instant` for
    /// the log's throttles): tests pass their own times.
    func handle(
        _ message: MQTTReceivedMessage, into sink: any FrameSink, at now: Double, instant: ContinuousClock.Instant
    ) {
        guard
            let delivery = receivers.withLock({
                $0.receive(topic: message.topic, payload: message.payload, size: message.size, at: now)
            })
        else {
            return
        }
        for label in delivery.forgotten { sink.forgetSource(label) }
        if let position = delivery.position { sink.setPosition(position, ofSource: delivery.label) }
        for frame in delivery.frames { sink.accept(frame, at: now, from: delivery.label) }
        log(delivery, topic: message.topic, at: instant)
    }

    /// The throttled lines one delivery is worth. A count covers every receiver of the
    /// network, not only the one named: the line says so.
    private func log(_ delivery: RemoteReceivers.Delivery, topic: String, at instant: ContinuousClock.Instant) {
        if let gap = delivery.gap, let count = gaps.withLock({ $0.record(now: instant) }) {
            logger.info("\(delivery.label): \(gap)\(Self.since(count, "breaks in batch numbers"))")
        }
        if let online = delivery.online, let count = statusChanges.withLock({ $0.record(now: instant) }) {
            logger.info("\(delivery.label) is \(online ? "online" : "offline")\(Self.since(count, "status changes"))")
        }
        if delivery.moved, let count = moves.withLock({ $0.record(now: instant) }) {
            let line =
                "\(delivery.label): its announcement changed (another position, or none); its frames are decoded and "
                + "range-checked from what it says now\(Self.since(count, "changed announcements"))"
            logger.warning("\(line)")
        }
        if let distance = delivery.contradiction, let count = contradictions.withLock({ $0.record(now: instant) }) {
            let line =
                "\(delivery.label): its own frames place an aircraft \(Int(distance)) km from its announced position, "
                + "farther than any receiver hears: the announcement is likely wrong (another publisher of the "
                + "name, or any client of the broker), and the positions of its frames are rejected"
                + Self.since(count, "such aircraft")
            logger.warning("\(line)")
        }
        if let (displaced, silent) = delivery.displaced, let count = displacements.withLock({ $0.record(now: instant) })
        {
            let line =
                "\(label): \(RemoteReceivers.maximumReceivers) receivers known; \(displaced), silent for \(Int(silent)) s, "
                + "gave way to \(delivery.label)\(Self.since(count, "receivers gave way"))"
            logger.warning("\(line)")
        }
        if let problem = delivery.problem, let count = problems.withLock({ $0.record(now: instant) }) {
            let more = count > 1 ? " (\(count) dropped since the last line)" : ""
            logger.warning("\(label): dropped a payload on \(String(topic.prefix(120))): \(problem)\(more)")
        }
    }

    /// " (N events of all receivers since the last line)" for a throttled line covering
    /// `count` events, which may be other receivers' as well as the one the line names.
    private static func since(_ count: Int, _ events: String) -> String {
        count > 1 ? " (\(count) \(events) in the network since the last line)" : ""
    }

    /// Each receiver's counters, the longest silent first.
    package var receiverCounters: [(label: String, counters: RemoteReceiverCounters)] {
        receivers.withLock { $0.counters }
    }

    /// The client's counters, once it runs.
    package var clientStatistics: MQTTClient.Statistics? { client.withLock { $0?.statistics } }

    /// The input's counters for the statistics line: the connection, then the 20 busiest
    /// receivers, the rest summed in one part, the receivers forgotten, and messages that
    /// concerned none. Its length is bounded however many receivers there are.
    package var summary: String {
        let (receivers, table) = self.receivers.withLock {
            (
                $0.counters,
                (
                    badTopics: $0.badTopics, forgottenReceivers: $0.forgottenReceivers,
                    displacedReceivers: $0.displacedReceivers, forgottenCounters: $0.forgottenCounters
                )
            )
        }
        var busiest = receivers.sorted { ($0.counters.frames, $1.label) > ($1.counters.frames, $0.label) }
        let rest = busiest.count > Self.receiversListed ? busiest[Self.receiversListed...] : []
        busiest.removeLast(rest.count)
        var parts =
            [
                "\(label): "
                    + (clientStatistics.map {
                        "\($0.connected ? "connected" : "disconnected"), \($0.connections) connections, \($0.received) messages"
                    } ?? "starting")
            ]
            + busiest.map { $0.counters.summary(label: $0.label) }
        if !rest.isEmpty {
            var sum = RemoteReceiverCounters()
            for receiver in rest { sum.add(receiver.counters) }
            parts.append(sum.summary(label: "\(rest.count) more receivers"))
        }
        if table.forgottenReceivers > 0 || table.displacedReceivers > 0 {
            let forgotten = table.forgottenCounters.summary(
                label: "\(table.forgottenReceivers) receivers forgotten after a day's silence, "
                    + "\(table.displacedReceivers) gave way to new ones when \(RemoteReceivers.maximumReceivers) were known"
            )
            parts.append(forgotten)
        }
        if table.badTopics > 0 { parts.append("\(table.badTopics) messages on other topics") }
        return parts.joined(separator: "; ")
    }

    /// Receivers named one by one in the statistics line; the rest are summed.
    static let receiversListed = 20
}

/// An MQTT input that cannot start (settings libmosquitto refuses), as one line.
package struct MQTTInputError: Error, CustomStringConvertible, Sendable {
    /// The line.
    package var description: String
}
