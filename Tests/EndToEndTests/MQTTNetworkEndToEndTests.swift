import Foundation
import MQTT
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A network of receivers through a real mosquitto: three daemons replay different
/// recordings and publish; a fourth gathers them. Its feed shows the union of their
/// aircraft at their positions; garbage on the broker changes only a counter; a broker
/// restart is survived with every loss counted; a killed publisher turns `offline`.
@Suite(.serialized, .tags(.slow)) struct MQTTNetworkEndToEndTests {
    /// Retained and live messages a test client saw, by topic.
    final class Watcher: Sendable {
        let latest = Mutex<[String: [UInt8]]>([:])
        func add(_ message: MQTTReceivedMessage) { latest.withLock { $0[message.topic] = message.payload } }
        func text(_ topic: String) -> String? {
            latest.withLock { $0[topic] }.map { String(decoding: $0, as: UTF8.self) }
        }
        func topics(_ prefix: String) -> [String] { latest.withLock { $0.keys.filter { $0.hasPrefix(prefix) } } }
    }

    struct Publisher {
        let name: String
        let daemon: Daemon
        let socket: String
    }

    static let keepalive = 5

    static func socketPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-mqtt-\(name)-\(UUID().uuidString.prefix(6)).sock"
        ).path
    }

    static func startPublisher(
        _ name: String, sample: String, receiver: String, broker: MosquittoBroker,
        extra: [String] = []
    ) throws -> Publisher {
        let socket = socketPath(name)
        let path = BinaryRunner.projectRoot.appendingPathComponent("Samples/\(sample)").path
        let daemon = try Daemon(
            [
                "--replay", path, "--throttle", "--loop", "--receiver", receiver, "--range-km", "400",
                "--frame-interval", "0.25", "--socket", socket, "--stats-interval", "1",
                "--mqtt", broker.url, "--name", name, "--mqtt-keepalive", "\(keepalive)"
            ] + extra)
        return Publisher(name: name, daemon: daemon, socket: socket)
    }

    /// The aircraft with a position in a daemon's latest radar frame, by address.
    static func positions(_ socket: String) async throws -> [String: (lat: Double, lon: Double)] {
        let client = try await SocketTestClient.connect(path: socket)
        defer { Task { await client.close() } }
        _ = await client.waitForLines(timeout: 5) { lines in
            lines.filter { $0.contains("\"type\":\"frame\"") }.count >= 2
        }
        let aircraft = client.objects(ofType: "frame").last?["aircraft"] as? [[String: Any]] ?? []
        var result: [String: (lat: Double, lon: Double)] = [:]
        for plane in aircraft {
            if let icao = plane["icao"] as? String, let lat = plane["lat"] as? Double, let lon = plane["lon"] as? Double
            {
                result[icao] = (lat, lon)
            }
        }
        return result
    }

    /// The numbers after `label` in the last line of `log` containing `marker`, e.g. the
    /// counters of "mqtt alpha: 120 frames in 4 batches, …".
    static func numbers(after label: String, in log: String, marker: String = "totals:") -> [Int]? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains(marker) && $0.contains(label) }),
            let start = line.range(of: label)
        else { return nil }
        let rest = line[start.upperBound...].prefix { $0 != ";" }
        return rest.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }

    func waitUntil(_ seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return try await condition()
    }

    @Test(.requires(.program(MosquittoBroker.executable))) func threePublishersMakeOneSkyOnTheAggregator() async throws
    {
        guard MosquittoBroker.isAvailable() else { return }
        let broker = try MosquittoBroker()
        let publishers = try [
            Self.startPublisher("alpha", sample: "quiet-sky.cu8", receiver: "52,4.4", broker: broker),
            Self.startPublisher(
                "bravo", sample: "busy-airport.cu8", receiver: "52.3,4.75", broker: broker,
                extra: ["--mqtt-homeassistant"]),
            Self.startPublisher("charlie", sample: "weak-signals.cu8", receiver: "52,4.4", broker: broker)
        ]
        defer { for publisher in publishers { _ = publisher.daemon.stop() } }
        let aggregatorSocket = Self.socketPath("aggregator")
        let aggregator = try Daemon([
            "--net-only", "--mqtt-in", broker.url, "--mqtt-keepalive", "\(Self.keepalive)",
            "--frame-interval", "0.25", "--socket", aggregatorSocket, "--stats-interval", "1"
        ])
        defer { _ = aggregator.stop() }
        let watcher = Watcher()
        var watching = MQTTConfiguration(broker: try MQTTBroker(url: broker.url), clientID: "test-watch")
        watching.keepaliveSeconds = 5
        watching.maximumReconnectDelaySeconds = 1
        let client = try MQTTClient(configuration: watching, onMessage: watcher.add)
        client.subscribe("aviator/+/status")
        client.subscribe("aviator/+/receiver")
        client.subscribe("aviator/+/aircraft/+")
        client.subscribe("aviator/+/sensors")
        client.subscribe("homeassistant/#")
        try client.start()
        defer { client.stop() }

        // Every publisher online, with its position rounded to 0.1°.
        #expect(
            await waitUntil(30) { publishers.allSatisfy { watcher.text("aviator/\($0.name)/status") == "online" } },
            "\(publishers.map { $0.daemon.stderr })")
        #expect(
            watcher.text("aviator/bravo/receiver")?.contains("\"lat\":52.3,\"lon\":4.8") == true,
            "\(watcher.text("aviator/bravo/receiver") ?? "no announcement")")

        // The union of the publishers' aircraft on the aggregator's feed, each where its own
        // receiver puts it.
        var mismatches: [String] = []
        var wanted = Set<String>()
        var seen = Set<String>()
        let union = await waitUntil(40) {
            mismatches = []
            wanted = []
            let gathered = (try? await Self.positions(aggregatorSocket)) ?? [:]
            seen = Set(gathered.keys)
            for publisher in publishers {
                let own = (try? await Self.positions(publisher.socket)) ?? [:]
                if own.isEmpty { return false }
                wanted.formUnion(own.keys)
                for (icao, position) in own {
                    guard let there = gathered[icao] else { continue }
                    if abs(there.lat - position.lat) > 0.01 || abs(there.lon - position.lon) > 0.01 {
                        mismatches.append("\(icao): \(position) at \(publisher.name), \(there) gathered")
                    }
                }
            }
            return seen.isSuperset(of: wanted) && mismatches.isEmpty
        }
        #expect(union, "missing \(wanted.subtracting(seen)); \(mismatches)\n\(aggregator.stderr.suffix(3000))")
        #expect(wanted.count > 40, "\(wanted.count) aircraft with positions")

        // Each aircraft's state, retained, without the projection fields; Home Assistant's
        // sensors for bravo.
        let aircraftTopics = watcher.topics("aviator/alpha/aircraft/")
        #expect(aircraftTopics.count >= 5, "\(aircraftTopics)")
        for topic in aircraftTopics.prefix(5) {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data((watcher.text(topic) ?? "").utf8)) as? [String: Any])
            #expect(topic.hasSuffix("/\(object["icao"] as? String ?? "?")"))
            #expect(object["azimuth_deg"] == nil && object["x"] == nil && object.keys.contains("lat"), "\(object)")
        }
        #expect(watcher.topics("homeassistant/sensor/aviator_bravo/").count == 4)
        #expect(
            await waitUntil(10) {
                let sensors =
                    (try? JSONSerialization.jsonObject(with: Data((watcher.text("aviator/bravo/sensors") ?? "").utf8)))
                    as? [String: Any]
                return (sensors?["aircraft"] as? Int ?? 0) > 0 && sensors?["nearest_distance_km"] is Double
            }, "\(watcher.text("aviator/bravo/sensors") ?? "no sensors")")

        // Garbage on a subscribed topic: counted against that receiver, nothing else changes.
        var garbler = watching
        garbler.clientID = "test-garbage"
        let garbage = try MQTTClient(configuration: garbler)
        try garbage.start()
        defer { garbage.stop() }
        #expect(await waitUntil(10) { garbage.isConnected })
        garbage.publish(MQTTMessage(topic: "aviator/alpha/beast", payload: Array("not a batch".utf8)))
        garbage.publish(
            MQTTMessage(topic: "aviator/alpha/beast", payload: [1, 0, 0, 0, 9, 0, 0, 0, 0, 0x1A, 0x33, 1, 2]))
        garbage.publish(MQTTMessage(topic: "aviator/alpha/beast", payload: Array(repeating: 0x1A, count: 300_000)))
        garbage.publish(MQTTMessage(topic: "aviator/alpha/receiver", payload: Array("{\"lat\":1000}".utf8)))
        #expect(
            await waitUntil(10) {
                kill(aggregator.process.processIdentifier, SIGUSR1)
                try? await Task.sleep(for: .milliseconds(300))
                let counts = Self.numbers(after: "mqtt alpha:", in: aggregator.stderr) ?? []
                return counts.count >= 5 && counts[3] == 3 && counts[4] == 1
            }, "\(aggregator.stderr.suffix(2000))")
        #expect(aggregator.process.isRunning)
        #expect(aggregator.stderr.contains("dropped a payload on aviator/alpha/beast"))
        let afterGarbage = try await Self.positions(aggregatorSocket)
        #expect(
            Set(afterGarbage.keys).isSuperset(of: wanted),
            "missing after garbage: \(wanted.subtracting(afterGarbage.keys))")

        // The broker restarts (forgetting every retained message): everyone reconnects and
        // carries on.
        broker.stop()
        try await Task.sleep(for: .seconds(2))
        try broker.start()
        let reconnected = await waitUntil(40) {
            for publisher in publishers { kill(publisher.daemon.process.processIdentifier, SIGUSR1) }
            kill(aggregator.process.processIdentifier, SIGUSR1)
            try? await Task.sleep(for: .milliseconds(300))
            let outs = publishers.map {
                Self.numbers(after: "as \($0.name):", in: $0.daemon.stderr, marker: "mqtt-out") ?? []
            }
            // batches, frames, dropped, aircraft messages, expired, connections, …
            let connections = outs.map { $0.count > 5 ? $0[5] : 0 }
            let input =
                Self.numbers(after: "mqtt-in 127.0.0.1:\(broker.port):", in: aggregator.stderr, marker: "mqtt-in") ?? []
            return connections.allSatisfy { $0 >= 2 } && (input.first ?? 0) >= 2
        }
        #expect(reconnected, "\(publishers.map { $0.daemon.stderr.suffix(1500) })\n\(aggregator.stderr.suffix(1500))")
        #expect(
            await waitUntil(20) { publishers.allSatisfy { watcher.text("aviator/\($0.name)/status") == "online" } },
            "the status is published again after the restart")
        let framesBefore = Self.numbers(after: "mqtt bravo:", in: aggregator.stderr)?.first ?? 0
        #expect(
            await waitUntil(20) {
                kill(aggregator.process.processIdentifier, SIGUSR1)
                try? await Task.sleep(for: .milliseconds(300))
                return (Self.numbers(after: "mqtt bravo:", in: aggregator.stderr)?.first ?? 0) > framesBefore + 100
            }, "frames flow again")

        // A publisher that stops cleanly: every frame it published is accounted for on the
        // aggregator, received or counted as missed.
        #expect(publishers[0].daemon.stop(signal: SIGINT).status == 0)
        #expect(await waitUntil(10) { watcher.text("aviator/alpha/status") == "offline" })
        // The publisher's last line, after its final batch.
        let published = try #require(
            Self.numbers(after: "as alpha:", in: publishers[0].daemon.stderr, marker: "stopped:"),
            "\(publishers[0].daemon.stderr.suffix(2000))")
        // The last batches may still be on their way through the broker on a loaded computer:
        // ask for the aggregator's figures until they account for every frame (or 10 s pass).
        _ = await waitUntil(10) {
            kill(aggregator.process.processIdentifier, SIGUSR1)
            try? await Task.sleep(for: .milliseconds(500))
            guard let counts = Self.numbers(after: "mqtt alpha:", in: aggregator.stderr), counts.count > 6 else {
                return false
            }
            return counts[0] + counts[2] + counts[6] >= published[1]
        }
        let gathered = try #require(Self.numbers(after: "mqtt alpha:", in: aggregator.stderr))
        // frames, batches, rejected, malformed, oversized, missed batches, missed frames
        #expect(
            gathered[0] + gathered[2] + gathered[6] == published[1],
            "alpha published \(published[1]) frames; the aggregator counts \(gathered)\n\(aggregator.stderr.split(separator: "\n").filter { $0.contains("mqtt alpha: batch") }.joined(separator: "\n"))"
        )
        print("network: \(seen.count) aircraft gathered; alpha published \(published); aggregator counted \(gathered)")

        // A publisher killed outright: the broker publishes its will within 1.5 keepalives.
        let killedAt = Date()
        kill(publishers[2].daemon.process.processIdentifier, SIGKILL)
        #expect(
            await waitUntil(Double(Self.keepalive) * 1.5 + 5) { watcher.text("aviator/charlie/status") == "offline" })
        print("network: charlie offline \(String(format: "%.1f", Date().timeIntervalSince(killedAt))) s after SIGKILL")
        #expect(aggregator.waitFor("mqtt charlie is offline", timeout: 5))
    }
}

extension EndToEnd {
    /// The network options: every one has help, and a bad value is one clear line.
    @Suite struct MQTTOptionTests {
        @Test func everyNetworkOptionHasHelp() throws {
            let help = try BinaryRunner.run(["run", "--help"])
            #expect(help.status == 0)
            for option in [
                "--mqtt ", "--name ", "--mqtt-in ", "--mqtt-topic ", "--mqtt-homeassistant", "--mqtt-version ",
                "--mqtt-ca-file ", "--mqtt-keepalive "
            ] {
                #expect(help.stdout.contains(option), "no help for \(option)")
            }
            #expect(try BinaryRunner.run(["bench-network", "--help"]).status == 0)
        }

        @Test func badNetworkOptionsAreOneClearLine() throws {
            let cases: [([String], String)] = [
                (["--mqtt", "mqtt://user:secret@127.0.0.1"], "AVIATOR_MQTT_USERNAME"),
                (["--mqtt", "http://127.0.0.1"], "not an mqtt:// or mqtts:// URL"),
                (["--mqtt-in", "mqtt://127.0.0.1:0"], "--mqtt-in"),
                (["--mqtt-homeassistant"], "--mqtt-homeassistant needs --mqtt"),
                (["--mqtt", "mqtt://127.0.0.1", "--name", "a/b"], "--name"),
                (["--mqtt-in", "mqtt://127.0.0.1", "--mqtt-topic", "aviator/#"], "--mqtt-topic"),
                (["--mqtt", "mqtt://127.0.0.1", "--mqtt-version", "4"], "--mqtt-version"),
                (["--mqtt", "mqtt://127.0.0.1", "--mqtt-keepalive", "2"], "--mqtt-keepalive"),
                (["--mqtt", "mqtts://127.0.0.1", "--mqtt-ca-file", "/nonexistent.pem"], "--mqtt-ca-file")
            ]
            for (arguments, words) in cases {
                // A source, so that only the option under test is wrong.
                let source = arguments.contains("--mqtt-in") ? [] : ["--mqtt-in", "mqtt://127.0.0.1:1"]
                let result = try BinaryRunner.run(["--net-only"] + source + arguments)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            }
            let password = try BinaryRunner.run(
                ["--mqtt", "mqtt://127.0.0.1", "--net-only", "--beast-listen", "0"],
                environment: ["AVIATOR_MQTT_PASSWORD": "x", "AVIATOR_MQTT_USERNAME": ""])
            #expect(password.status != 0 && password.stderr.contains("AVIATOR_MQTT_USERNAME"), "\(password.stderr)")
        }
    }
}
