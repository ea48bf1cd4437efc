import Foundation
import TestSupport
import Testing

@testable import FeedServer

/// Many clients on one feed server, plus one that never reads: every reading client must get
/// every frame, in order, within one frame interval, and the server's memory must stay flat.
///
/// `swift test` runs a short version. `scripts/feed-load.sh` runs the full one (100 clients,
/// 30 s at 1 Hz) through the environment: FEED_LOAD_SECONDS, FEED_LOAD_INTERVAL,
/// FEED_LOAD_CLIENTS, FEED_LOAD_AIRCRAFT, FEED_LOAD_STALL_TIMEOUT.
///
/// Memory is read for the whole test process, so it says something about the server only
/// when no other test runs beside it: the flatness check is made when FEED_LOAD_ALONE=1,
/// which `make test` (in a run of its own after the others) and `scripts/feed-load.sh` set.
@Suite(.tags(.slow)) struct FeedLoadTests {
    struct Settings {
        // Short enough for every `swift test`, with half-second frames so a busy machine
        // does not make frames late.
        var seconds = 4.0
        var interval = 0.5
        var clients = 100
        var aircraft = 150
        var stallTimeout: Double? = 1.0
        /// Whether this is the only test in the process, so its memory is the server's.
        var alone = false

        init() {
            let environment = ProcessInfo.processInfo.environment
            if let value = environment["FEED_LOAD_SECONDS"].flatMap(Double.init) { seconds = value }
            if let value = environment["FEED_LOAD_INTERVAL"].flatMap(Double.init) { interval = value }
            if let value = environment["FEED_LOAD_CLIENTS"].flatMap(Int.init) { clients = value }
            if let value = environment["FEED_LOAD_AIRCRAFT"].flatMap(Int.init) { aircraft = value }
            if let value = environment["FEED_LOAD_STALL_TIMEOUT"] { stallTimeout = Double(value) }
            alone = environment["FEED_LOAD_ALONE"] == "1"
        }
    }

    /// Resident memory of this process in bytes, from /proc.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func everyReadingClientGetsEveryFrameInTime() async throws {
        let settings = Settings()
        let configuration = FeedConfiguration(
            socketPath: TestSky.socketPath(),
            radar: RadarConfiguration(frameInterval: settings.interval),
            stallTimeout: settings.stallTimeout)
        let server = try await FeedServer.bind(
            configuration: configuration,
            provider: TestSky.provider(TestSky.crowd(settings.aircraft)))
        var readers: [SocketTestClient] = []
        for _ in 0..<settings.clients {
            readers.append(try await SocketTestClient.connect(path: configuration.socketPath, keep: .frameHeaders))
        }
        let sleeper = try await SocketTestClient.connect(path: configuration.socketPath, reading: false)
        // Everyone greeted before the first frame, so everyone must see frame 1.
        for reader in readers { await reader.waitForLines { !$0.isEmpty } }

        let running = Task { try await server.run() }
        let start = Date()
        var memory: [Int] = []
        // The frames the run is judged on. On a machine busy with other tests the server's
        // clock can fall behind the wall clock, so the run goes on (up to four times as long)
        // until it has sent them.
        let wanted = UInt64(settings.seconds / settings.interval) - 1
        while true {
            let elapsed = Date().timeIntervalSince(start)
            let behind = await server.statistics().frames < wanted
            guard elapsed < settings.seconds || (behind && elapsed < 4 * settings.seconds) else { break }
            try await Task.sleep(for: .seconds(settings.interval))
            memory.append(Self.residentBytes())
        }
        let statistics = await server.statistics()
        let lastFrame = statistics.frames
        // Let the last frame arrive, then stop.
        let settle = Date().addingTimeInterval(settings.interval * 2)
        func behind(_ reader: SocketTestClient) -> Bool {
            reader.state.withLockedValue { ($0.frames.last?.seq ?? 0) < lastFrame }
        }
        while Date() < settle, readers.contains(where: behind) {
            try await Task.sleep(for: .milliseconds(10))
        }
        // The sleeper is found stalled when a frame arrives after its stall timeout, counted
        // from when its socket buffer filled: on a busy machine that can come after the last
        // frame measured, so frames go on until it has (bounded).
        if let timeout = settings.stallTimeout {
            let deadline = Date().addingTimeInterval(timeout + 4 * settings.interval)
            while Date() < deadline, await server.statistics().clientsStalled == 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        running.cancel()
        _ = await running.result
        let final = await server.statistics()

        var gaps = 0
        var late = 0
        var short = 0
        var delivered = 0
        var latencies: [Double] = []
        for reader in readers {
            let frames = reader.state.withLockedValue { $0.frames }
            delivered += frames.count
            let seqs = frames.map(\.seq)
            if seqs.isEmpty || seqs != Array(1...UInt64(seqs.count)) { gaps += 1 }
            if (seqs.last ?? 0) < lastFrame { short += 1 }
            for frame in frames {
                let latency = frame.arrival - frame.time
                latencies.append(latency)
                if latency > settings.interval { late += 1 }
            }
        }
        latencies.sort()
        let p99 = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        let warm = memory[min(memory.count - 1, max(0, memory.count / 4))]
        let megabytes = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        print(
            """
            feed load: \(settings.clients) reading clients + 1 never reading, \(settings.aircraft) aircraft, \
            interval \(settings.interval) s, \(String(format: "%.1f", Date().timeIntervalSince(start))) s; \
            frames \(lastFrame), delivered \(delivered) of \(Int(lastFrame) * settings.clients), \
            clients with gaps \(gaps), missing the last frame \(short), late frames \(late); \
            latency median \(String(format: "%.1f", (latencies.isEmpty ? 0 : latencies[latencies.count / 2]) * 1000)) ms, \
            p99 \(String(format: "%.1f", p99 * 1000)) ms, max \(String(format: "%.1f", (latencies.last ?? 0) * 1000)) ms; \
            RSS after warm-up \(megabytes(warm)) MB, max \(megabytes(memory.max() ?? 0)) MB, end \(megabytes(memory.last ?? 0)) MB\
            \(settings.alone ? "" : " (not checked: other tests share the process)"); \
            dropped \(final.framesDropped), stalled clients disconnected \(final.clientsStalled)
            """)

        #expect(lastFrame >= wanted)
        #expect(gaps == 0)
        #expect(short == 0)
        #expect(late == 0)
        #expect(final.clientsStalled == 1)
        // The close reaches the client a moment after the server decides it.
        let closing = Date().addingTimeInterval(2)
        while !sleeper.isClosed, Date() < closing { try await Task.sleep(for: .milliseconds(20)) }
        #expect(sleeper.isClosed)
        // Flat: no growth beyond allocator noise once warmed up.
        if settings.alone { #expect((memory.last ?? 0) - warm < 16 * 1_048_576) }
        for reader in readers { await reader.close() }
    }
}
