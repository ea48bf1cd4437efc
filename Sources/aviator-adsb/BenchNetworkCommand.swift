import ArgumentParser
import FoundationEssentials
import MQTT
import ModeS
import ReceiverNetwork
import Receivers
import Simulator
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `aviator-adsb bench-network`: light synthetic receivers publishing frame batches to an MQTT
/// broker, and a reader of an aggregator's Beast output that measures how long each frame
/// took from its publisher through the broker and the aggregator (`make bench-network`).
///
/// Each frame carries the wall clock of its making as its 12 MHz timestamp, which the
/// aggregator passes on untouched; the reader takes the difference to its own clock when the
/// frame arrives.
struct BenchNetworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-network",
        abstract: "Synthetic receivers publishing to an MQTT broker; latency and losses through an aggregator.",
        discussion: """
            Starts --publishers MQTT clients, each publishing --rate DF17 frames a second of \
            its own aircraft in batches every 250 ms to --broker, and reads the aggregator's \
            Beast output at --beast (an `aviator-adsb --net-only --mqtt-in BROKER --beast-out \
            PORT`). Prints the frames sent and received and the end-to-end latency. \
            scripts/bench-network.sh runs the whole set-up and measures the aggregator.
            """)

    @Option(help: ArgumentHelp("The broker to publish to.", valueName: "mqtt://host:port"))
    var broker: String

    @Option(help: ArgumentHelp("The aggregator's Beast output.", valueName: "host:port"))
    var beast: String

    @Option(help: "Synthetic receivers.")
    var publishers: Int = 10

    @Option(help: "Frames a second per receiver.")
    var rate: Int = 1000

    @Option(help: "Seconds of publishing.")
    var seconds: Double = 20

    func validate() throws {
        _ = try MQTTOptions.broker(broker, option: "--broker")
        guard (1...1000).contains(publishers) else { throw ValidationError("--publishers must be from 1 to 1000") }
        guard (1...100_000).contains(rate) else { throw ValidationError("--rate must be from 1 to 100000") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
        guard BeastEndpoint(beast) != nil else { throw ValidationError("--beast takes HOST:PORT") }
    }

    /// 12 MHz ticks of the wall clock, in the 48 bits a Beast timestamp has.
    static func ticks(_ time: Double = Date().timeIntervalSince1970) -> UInt64 {
        UInt64(time * 12e6) & 0xFFFF_FFFF_FFFF
    }

    func run() async throws {
        let endpoint = BeastEndpoint(beast)!
        let reader = try LatencyReader(host: endpoint.host, port: endpoint.port)
        reader.start()
        let clients = try await connectPublishers()
        let sent = try await publish(through: clients)
        try await Task.sleep(for: .seconds(3))
        let dropped = clients.map { $0.statistics.outbox.dropped + $0.statistics.lostInFlight }.reduce(0, +)
        for client in clients { client.stop() }
        let result = reader.finish()
        let latencies = result.latencies.sorted()
        func percentile(_ p: Double) -> String {
            latencies.isEmpty
                ? "-"
                : DecimalText.fixed(
                    latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] * 1000, places: 0) + " ms"
        }
        print(
            "publishers \(publishers), \(rate) frames/s each, \(Int(seconds)) s: sent \(sent) frames, received \(result.received), "
                + "lost \(sent - result.received) (\(DecimalText.fixed(100 * Double(sent - result.received) / Double(max(sent, 1)), places: 2))%), "
                + "publisher queues dropped \(dropped) messages; latency p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))"
        )
    }

    /// One MQTT client per synthetic receiver, each connected to the broker (or an error after
    /// 10 s).
    func connectPublishers() async throws -> [MQTTClient] {
        var clients: [MQTTClient] = []
        for index in 0..<publishers {
            var settings = MQTTConfiguration(
                broker: try MQTTBroker(url: broker), clientID: "bench-\(index)-\(UInt32.random(in: 0...UInt32.max))")
            settings.keepaliveSeconds = 30
            let client = try MQTTClient(configuration: settings)
            try client.start()
            clients.append(client)
        }
        let deadline = Date().addingTimeInterval(10)
        while clients.contains(where: { !$0.isConnected }), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard clients.allSatisfy(\.isConnected) else {
            throw RuntimeError("not every publisher could connect to \(broker)")
        }
        return clients
    }

    /// Publishes each receiver's frames in Beast batches four times a second for `seconds`;
    /// returns how many frames were sent.
    func publish(through clients: [MQTTClient]) async throws -> Int {
        // Each receiver's own 100 aircraft; identification frames pass every check.
        let aircraft = 100
        let frames: [[ModeSBits]] = (0..<publishers).map { publisher in
            (0..<aircraft).map { plane in
                ExtendedSquitterEncoder.identification(
                    icao: UInt32(0x100000 + publisher * 0x1000 + plane),
                    callsign: "B\(publisher)X\(plane)", category: "A3")
            }
        }
        let interval = 0.25
        let perBatch = max(1, Int((Double(rate) * interval).rounded()))
        var sequence = [UInt32](repeating: 0, count: publishers)
        var sent = 0
        var next = 0
        let start = Date().timeIntervalSince1970
        var tick = start
        while tick - start < seconds {
            for (index, client) in clients.enumerated() {
                let now = Self.ticks()
                var payload = BeastBatch.header(
                    sequence: sequence[index], framesBefore: sequence[index] &* UInt32(perBatch))
                for _ in 0..<perBatch {
                    BeastEncoder.append(
                        Frame(bits: frames[index][next % aircraft], address: 0, timestamp: now, signalLevel: -12),
                        to: &payload)
                    next += 1
                }
                client.publish(MQTTMessage(topic: ReceiverTopics(name: "bench\(index)").beast, payload: payload))
                sequence[index] &+= 1
                sent += perBatch
            }
            tick += interval
            let wait = tick - Date().timeIntervalSince1970
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        }
        return sent
    }
}

/// HOST:PORT of a TCP endpoint.
struct BeastEndpoint {
    let host: String
    let port: Int

    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port), colon > text.startIndex
        else { return nil }
        host = String(text[..<colon])
        self.port = port
    }
}

/// Reads a Beast stream on a thread of its own and records each frame's age on arrival.
final class LatencyReader: Sendable {
    private let descriptor: Int32
    private let state = Mutex<(parser: BeastFrameParser, latencies: [Double], received: Int, done: Bool)>(
        (BeastFrameParser(), [], 0, false))

    init(host: String, port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RuntimeError("cannot connect to the Beast output at \(host):\(port)")
        }
    }

    func start() {
        DedicatedThread.start(name: "bench-reader") { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                let now = BenchNetworkCommand.ticks()
                state.withLock { state in
                    guard !state.done else { return }
                    buffer.withUnsafeBytes { bytes in
                        state.parser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { frame in
                            state.received += 1
                            // Every 7th frame is enough for the percentiles.
                            if state.received % 7 == 0 {
                                state.latencies.append(Double((now &- frame.timestamp) & 0xFFFF_FFFF_FFFF) / 12e6)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Stops counting; what was counted.
    func finish() -> (received: Int, latencies: [Double]) {
        let result = state.withLock { state in
            state.done = true
            return (state.received, state.latencies)
        }
        shutdown(descriptor, Int32(SHUT_RDWR))
        return result
    }
}
