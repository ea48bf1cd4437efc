import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// Many phones on one daemon: 200 WebSocket clients reading a 300-aircraft radar at one frame
/// a second, and one client that never reads. Every reader must get every frame within an
/// interval, the daemon's memory must stay flat, and the sleeper must be let go. The figures
/// are printed. It loads both cores for its whole run, so it runs only when asked for, alone:
/// `make web-load` (`WEB_LOAD_SECONDS`, 30 by default).
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["WEB_LOAD_SECONDS"] != nil,
        "a load run: make web-load"))
struct WebLoadEndToEndTests {
    static let clients = 200
    static var seconds: Double {
        ProcessInfo.processInfo.environment["WEB_LOAD_SECONDS"].flatMap(Double.init) ?? 30
    }

    /// One reader's frames: sequence number, the frame's own time and the arrival time.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [(seq: Int, time: Double, arrival: Double)] = []
        func add(_ seq: Int, _ time: Double) {
            let arrival = Date().timeIntervalSince1970
            lock.withLock { kept.append((seq, time, arrival)) }
        }
        var frames: [(seq: Int, time: Double, arrival: Double)] { lock.withLock { kept } }
    }

    /// `seq` and `time` from the head of a frame message, without parsing the whole frame.
    static func header(_ text: Substring) -> (Int, Double)? {
        guard text.hasPrefix(#"{"type":"frame","seq":"#) else { return nil }
        let fields = text.prefix(80).split(separator: ",")
        guard fields.count > 2,
            let seq = Int(fields[1].split(separator: ":").last ?? ""),
            let time = Double(fields[2].split(separator: ":").last ?? "")
        else { return nil }
        return (seq, time)
    }

    /// Resident memory and CPU seconds of a process, from /proc.
    static func usage(of pid: Int32) -> (rssMB: Double, cpuSeconds: Double) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rss =
            status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Double($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name, which is in parentheses: utime and stime are 14 and 15.
        let after = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = (after.count > 13 ? (Double(after[11]) ?? 0) + (Double(after[12]) ?? 0) : 0)
        return (rss / 1024, ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    @Test func twoHundredWebSocketsAndOneSleeperOnABusySky() async throws {
        let sky = try BusySky(label: "web-load")
        defer { sky.remove() }
        let daemon = try sky.daemon(["--max-clients", "256"])
        defer { _ = daemon.stop() }
        let port = try WebEndToEndTests.webPort(of: daemon)
        let pid = daemon.process.processIdentifier

        let sleeper = try RawConnection(port: port, receiveBuffer: 4096)
        sleeper.send(
            "GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")

        let readers = (0..<Self.clients).map { _ in Reader() }
        let stop = Date().addingTimeInterval(Self.seconds)
        let logger = Logger(label: "load")
        var memory: [Double] = []
        let start = Self.usage(of: pid)
        let startTime = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for reader in readers {
                group.addTask {
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/feed",
                        configuration: .init(maxFrameSize: 8 << 20), logger: logger
                    ) { inbound, _, _ in
                        for try await message in inbound.messages(maxSize: 8 << 20) {
                            if case .text(let text) = message, let (seq, time) = Self.header(Substring(text)) {
                                reader.add(seq, time)
                            }
                            if Date() > stop { break }
                        }
                    }
                }
            }
            group.addTask {
                while Date() < stop {
                    try await Task.sleep(for: .seconds(2))
                }
            }
            // Memory every two seconds while the clients read.
            while Date() < stop {
                try await Task.sleep(for: .seconds(2))
                memory.append(Self.usage(of: pid).rssMB)
            }
            try await group.waitForAll()
        }
        let end = Self.usage(of: pid)
        let elapsed = Date().timeIntervalSince(startTime)

        // Frames every reader saw from its first to the last frame all readers were open for.
        let last = readers.compactMap { $0.frames.last?.seq }.min() ?? 0
        var gaps = 0
        var late = 0
        var delivered = 0
        var latencies: [Double] = []
        for reader in readers {
            let frames = reader.frames.filter { $0.seq <= last }
            delivered += frames.count
            let seqs = frames.map(\.seq)
            if let first = seqs.first, seqs != Array(first...last) { gaps += 1 }
            for frame in frames {
                latencies.append(frame.arrival - frame.time)
                if frame.arrival - frame.time > 1.0 { late += 1 }
            }
        }
        latencies.sort()
        let median = latencies.isEmpty ? 0 : latencies[latencies.count / 2]
        let p99 = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        let warm = memory.count > 2 ? memory[memory.count / 4] : (memory.first ?? 0)
        let sleeperClosed = await sleeper.readAll(timeout: 10).closed
        print(
            String(
                format: """
                    web load: %d WebSocket clients + 1 never reading, 300-aircraft replay, %.0f s; frames delivered %d, \
                    readers with gaps %d, frames later than 1 s %d; latency median %.1f ms, p99 %.1f ms; \
                    daemon CPU %.1f%% of one core; RSS after warm-up %.1f MB, max %.1f MB, end %.1f MB; sleeper closed: %@
                    """, Self.clients, elapsed, delivered, gaps, late, median * 1000, p99 * 1000,
                (end.cpuSeconds - start.cpuSeconds) / elapsed * 100, warm, memory.max() ?? 0, memory.last ?? 0,
                sleeperClosed ? "yes" : "no"))

        #expect(readers.allSatisfy { !$0.frames.isEmpty }, "every client got frames")
        #expect(gaps == 0)
        #expect(late == 0)
        #expect(sleeperClosed)
        #expect((memory.last ?? 0) - warm < 32, "memory flat after warm-up")
    }
}
