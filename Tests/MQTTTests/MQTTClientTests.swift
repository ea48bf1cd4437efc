import Foundation
import MQTT
import Synchronization
import TestSupport
import Testing

/// The client against a real mosquitto: publish and subscribe, a queue that waits for a
/// broker that is not there yet, birth messages again after a broker restart.
@Suite(.serialized, .tags(.slow)) struct MQTTClientTests {
    /// Messages a subscriber received, by topic (the latest payload).
    final class Inbox: Sendable {
        let messages = Mutex<[(topic: String, payload: [UInt8], retained: Bool)]>([])
        func add(_ message: MQTTReceivedMessage) {
            messages.withLock { $0.append((message.topic, message.payload, message.retained)) }
        }
        func latest(_ topic: String) -> [UInt8]? { messages.withLock { $0.last { $0.topic == topic }?.payload } }
        func count(_ topic: String) -> Int { messages.withLock { $0.filter { $0.topic == topic }.count } }
    }

    func configuration(_ broker: MosquittoBroker, id: String, version: MQTTConfiguration.ProtocolVersion = .v5) throws
        -> MQTTConfiguration
    {
        var configuration = MQTTConfiguration(
            broker: try MQTTBroker(url: broker.url), clientID: "\(id)-\(UInt32.random(in: 0...UInt32.max))")
        configuration.protocolVersion = version
        configuration.keepaliveSeconds = 5
        configuration.maximumReconnectDelaySeconds = 1
        return configuration
    }

    func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    @Test(.requires(.program(MosquittoBroker.executable)), arguments: [MQTTConfiguration.ProtocolVersion.v5, .v311])
    func publishedMessagesReachASubscriberInOrder(version: MQTTConfiguration.ProtocolVersion) async throws {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker()
        let inbox = Inbox()
        let subscriber = try MQTTClient(
            configuration: configuration(broker, id: "sub", version: version), onMessage: inbox.add)
        subscriber.subscribe("test/#")
        try subscriber.start()
        defer { subscriber.stop() }
        #expect(await waitUntil { subscriber.isConnected })
        let publisher = try MQTTClient(configuration: configuration(broker, id: "pub", version: version))
        try publisher.start()
        defer { publisher.stop() }
        #expect(await waitUntil { publisher.isConnected })
        // Subscriptions take effect asynchronously: a retained marker says when they do.
        publisher.publish(MQTTMessage(topic: "test/ready", text: "1", retain: true))
        #expect(await waitUntil { inbox.count("test/ready") > 0 })
        for index in 0..<500 {
            publisher.publish(MQTTMessage(topic: "test/seq", payload: [UInt8(index % 256), UInt8(index / 256)]))
        }
        #expect(await waitUntil { inbox.count("test/seq") == 500 }, "received \(inbox.count("test/seq"))")
        let order = inbox.messages.withLock {
            $0.filter { $0.topic == "test/seq" }.map { Int($0.payload[0]) + 256 * Int($0.payload[1]) }
        }
        #expect(order == Array(0..<500))
        #expect(await waitUntil { publisher.statistics.published >= 501 })
        #expect(publisher.statistics.outbox.dropped == 0)
    }

    @Test(.requires(.program(MosquittoBroker.executable))) func aQueueWaitsForABrokerThatIsNotThereYet() async throws {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker()
        broker.stop()
        let publisher = try MQTTClient(configuration: configuration(broker, id: "early"))
        try publisher.start()
        defer { publisher.stop() }
        publisher.publish(MQTTMessage(topic: "test/early", text: "queued", qos: 1, retain: true))
        try await Task.sleep(for: .milliseconds(300))
        #expect(!publisher.isConnected)
        #expect(publisher.statistics.waiting == 1)
        try broker.start()
        #expect(await waitUntil { publisher.statistics.published == 1 }, "\(publisher.statistics)")
        let inbox = Inbox()
        let subscriber = try MQTTClient(configuration: configuration(broker, id: "late"), onMessage: inbox.add)
        subscriber.subscribe("test/early")
        try subscriber.start()
        defer { subscriber.stop() }
        #expect(await waitUntil { inbox.latest("test/early") == Array("queued".utf8) })
    }

    @Test(.requires(.program(MosquittoBroker.executable))) func birthMessagesAreRepublishedAfterTheBrokerForgotThem()
        async throws
    {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker()
        let publisher = try MQTTClient(
            configuration: configuration(broker, id: "born"),
            birth: {
                [MQTTMessage(topic: "test/status", text: "online", qos: 1, retain: true)]
            })
        try publisher.start()
        defer { publisher.stop() }
        #expect(await waitUntil { publisher.statistics.connections == 1 })
        broker.stop()
        #expect(await waitUntil { !publisher.isConnected })
        try broker.start()
        #expect(await waitUntil(15) { publisher.statistics.connections == 2 }, "\(publisher.statistics)")
        let inbox = Inbox()
        let subscriber = try MQTTClient(configuration: configuration(broker, id: "watch"), onMessage: inbox.add)
        subscriber.subscribe("test/status")
        try subscriber.start()
        defer { subscriber.stop() }
        #expect(await waitUntil { inbox.latest("test/status") == Array("online".utf8) })
    }

    /// libmosquitto's own loop gives up for good on errors it takes for fatal: an MQTT 5
    /// refusal (bad credentials, not authorised, server busy), a protocol or TLS error. The
    /// client goes on trying, so a broker set right again is joined without a restart.
    @Test(.requires(.program(MosquittoBroker.executable))) func aRefusingBrokerIsTriedAgainUntilItAccepts() async throws
    {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker(extraConfiguration: ["allow_anonymous false"])
        let events = Mutex<[MQTTClient.Event]>([])
        let client = try MQTTClient(
            configuration: configuration(broker, id: "refused"),
            onEvent: { event in events.withLock { $0.append(event) } })
        try client.start()
        defer { client.stop() }
        #expect(
            await waitUntil { events.withLock { $0.contains { if case .refused = $0 { true } else { false } } } },
            "\(events.withLock { $0 })")
        let refusal = events.withLock { $0.compactMap { if case .refused(let reason) = $0 { reason } else { nil } } }
            .first
        #expect(refusal?.lowercased().contains("not authorized") == true, "\(refusal ?? "none")")
        #expect(!client.isConnected)
        // The broker is set to admit the client, and restarted.
        broker.stop()
        let file = broker.directory.appendingPathComponent("mosquitto.conf")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "allow_anonymous false\n", with: "")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try broker.start()
        #expect(await waitUntil(15) { client.isConnected }, "\(client.statistics) \(events.withLock { $0 })")
        #expect(
            events.withLock {
                $0.contains { if case .lost(let text) = $0 { text.contains("reconnecting in") } else { false } }
            })
    }

    /// A filter libmosquitto cannot send is said so, by the subscription, rather than the
    /// input sitting connected and silent. (mosquitto grants every subscription and filters
    /// by its access rules on delivery; brokers that refuse one in their answer are reported
    /// the same way.)
    @Test(.requires(.program(MosquittoBroker.executable))) func aSubscriptionThatCannotBeMadeIsSaidSo() async throws {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker()
        let events = Mutex<[MQTTClient.Event]>([])
        let client = try MQTTClient(
            configuration: configuration(broker, id: "filters"),
            onEvent: { event in events.withLock { $0.append(event) } })
        client.subscribe("good/#")
        client.subscribe("bad/#/filter")
        try client.start()
        defer { client.stop() }
        let refused = {
            events.withLock {
                $0.compactMap {
                    if case .subscriptionRefused(let filter, let reason) = $0 { "\(filter): \(reason)" } else { nil }
                }
            }
        }
        #expect(await waitUntil { !refused().isEmpty }, "\(events.withLock { $0 })")
        #expect(refused() == ["bad/#/filter: invalid function arguments provided."], "\(refused())")
        #expect(client.statistics.lastProblem?.hasPrefix("subscribe to bad/#/filter") == true)
    }

    /// A broker that refuses a subscription in its answer (as brokers whose access rules deny
    /// the filter do) is said so, once, with the filter and the broker's reason.
    @Test func aSubscriptionTheBrokerRefusesIsSaidSo() async throws {
        let broker = try RefusingBroker()
        defer { broker.stop() }
        var settings = MQTTConfiguration(
            broker: try MQTTBroker(url: "mqtt://127.0.0.1:\(broker.port)"), clientID: "refused")
        settings.protocolVersion = .v311
        settings.maximumReconnectDelaySeconds = 1
        let events = Mutex<[MQTTClient.Event]>([])
        let client = try MQTTClient(configuration: settings, onEvent: { event in events.withLock { $0.append(event) } })
        client.subscribe("secret/#")
        try client.start()
        defer { client.stop() }
        let refused = {
            events.withLock {
                $0.compactMap {
                    if case .subscriptionRefused(let filter, let reason) = $0 { "\(filter): \(reason)" } else { nil }
                }
            }
        }
        #expect(await waitUntil { !refused().isEmpty }, "\(events.withLock { $0 })")
        #expect(broker.refused == 1)
        #expect(refused() == ["secret/#: the broker refused it (unspecified error)"], "\(refused())")
        #expect(client.statistics.lastProblem == "subscribe to secret/#: the broker refused it (unspecified error)")
        #expect(client.isConnected, "a refused subscription leaves the connection up")
    }

    @Test(.requires(.program(MosquittoBroker.executable))) func aPayloadOverTheLimitComesWithItsSizeAndNotItsBytes()
        async throws
    {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker()
        let received = Mutex<[MQTTReceivedMessage]>([])
        var settings = try configuration(broker, id: "small")
        settings.maximumIncomingPayload = 1_000
        let subscriber = try MQTTClient(
            configuration: settings, onMessage: { message in received.withLock { $0.append(message) } })
        subscriber.subscribe("test/size")
        try subscriber.start()
        defer { subscriber.stop() }
        #expect(await waitUntil { subscriber.isConnected })
        let publisher = try MQTTClient(configuration: configuration(broker, id: "large"))
        try publisher.start()
        defer { publisher.stop() }
        #expect(await waitUntil { publisher.isConnected })
        // Until the subscription is in place, the probe is sent again.
        #expect(
            await waitUntil {
                if received.withLock({ $0.isEmpty }) {
                    publisher.publish(MQTTMessage(topic: "test/size", payload: [1]))
                }
                return !received.withLock { $0.isEmpty }
            })
        publisher.publish(MQTTMessage(topic: "test/size", payload: [UInt8](repeating: 7, count: 1_000)))
        publisher.publish(MQTTMessage(topic: "test/size", payload: [UInt8](repeating: 7, count: 5_000_000)))
        #expect(await waitUntil { received.withLock { $0.contains { $0.size == 5_000_000 } } })
        let sizes = received.withLock { $0.filter { $0.size > 1 }.map { ($0.size, $0.payload.count, $0.isOversized) } }
        #expect(sizes.map(\.0) == [1_000, 5_000_000])
        #expect(sizes.map(\.1) == [1_000, 0])
        #expect(sizes.map(\.2) == [false, true])
    }

    @Test func settingsLibmosquittoRefusesAreOneSentence() throws {
        var settings = MQTTConfiguration(broker: MQTTBroker(host: "127.0.0.1", port: 1, usesTLS: true), clientID: "bad")
        settings.caFile = "/nonexistent/ca.pem"
        let client = try MQTTClient(configuration: settings)
        #expect(throws: MQTTError.self) { try client.start() }
        settings.caFile = nil
        settings.keepaliveSeconds = 2
        #expect(throws: MQTTError.self) { try MQTTClient(configuration: settings).start() }
    }
}
