import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Several sources into one daemon: a replay, a Beast feed it connects to and Beast pushed to
/// its listening port. The feed shows the union of their aircraft; a frame that two sources
/// deliver is tracked once and counted as the second one's duplicate.
@Suite(.serialized, .tags(.slow)) struct SeveralSourcesEndToEndTests {
    /// A one-connection TCP server on the loopback address that sends what the test gives it.
    final class BeastServer: @unchecked Sendable {
        private let listening: Int32
        private var connection: Int32 = -1
        let port: Int

        init() throws {
            let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listening = listening
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) }
            }
            guard bound == 0, listen(listening, 4) == 0 else {
                close(listening)
                throw EndToEndFailure("cannot listen: errno \(errno)")
            }
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listening, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit {
            if connection >= 0 { close(connection) }
            close(listening)
        }

        /// Waits (on a thread of its own) for the daemon to connect.
        func accepted() async throws {
            let descriptor = listening
            connection = try await onOwnThread { accept(descriptor, nil, nil) }
            guard connection >= 0 else { throw EndToEndFailure("accept: errno \(errno)") }
        }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Beast frames as a sender writes them (0x1A escaped; a fixed time and signal).
    static func beast(_ hex: String) -> [UInt8] {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { at -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: at)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        var frame: [UInt8] = [0x1A, bytes.count == 7 ? 0x32 : 0x33]
        for byte in [0, 0, 0, 1, 2, 3, 0x80] + bytes {
            frame.append(byte)
            if byte == 0x1A { frame.append(0x1A) }
        }
        return frame
    }

    /// The DF17 frames of each aircraft whose position `decode` resolves in one pass of a
    /// recording (as hex), by ICAO address.
    static func positionedFrames(of recording: String) throws -> [String: [String]] {
        let path = BinaryRunner.projectRoot.appendingPathComponent(recording).path
        let demodulated = try BinaryRunner.run(["demod", path])
        let decoded = try BinaryRunner.run(["decode", "--receiver", "52,4.4"], input: Data(demodulated.stdout.utf8))
        var positioned = Set<String>()
        var frames: [String: [String]] = [:]
        for line in decoded.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let icao = object["icao"] as? String, let hex = object["hex"] as? String, object["df"] as? Int == 17
            else { continue }
            if object["lat"] != nil { positioned.insert(icao) }
            frames[icao, default: []].append(hex)
        }
        return frames.filter { positioned.contains($0.key) }
    }

    @Test func aReplayAndTwoBeastInputsMakeOneSkyWithEachFrameOnce() async throws {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-sources-\(UUID().uuidString.prefix(8)).sock"
        ).path
        let server = try BeastServer()
        let daemon = try Daemon([
            "--replay", sample, "--throttle", "--loop", "--receiver", "52,4.4", "--range-km", "300",
            "--frame-interval", "0.25", "--socket", socket,
            "--beast-in", "127.0.0.1:\(server.port)", "--beast-listen", "127.0.0.1:0"
        ])
        defer { _ = daemon.stop() }
        try await server.accepted()
        guard daemon.waitFor("beast-listen 127.0.0.1:", timeout: 20),
            let line = daemon.stderr.split(separator: "\n").first(where: { $0.contains("beast-listen 127.0.0.1:") }),
            let range = line.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression),
            let listenPort = Int(line[range].split(separator: ":").last ?? "")
        else {
            throw EndToEndFailure("no Beast listener in:\n\(daemon.stderr)")
        }
        let pusher = try RawConnection(port: listenPort)

        // Three aircraft of another recording, none of this one: A's frames come from the
        // feed we connect to, B's are pushed to us, C's come from both at once.
        let replayed = try EndToEnd.FeedEndToEndTests().positionedByDecoder()
        let others = try Self.positionedFrames(of: "Samples/busy-airport.cu8").filter { !replayed.contains($0.key) }
        let chosen = others.keys.sorted { others[$0]!.count > others[$1]!.count }.prefix(3)
        try #require(chosen.count == 3, "too few aircraft in the other recording")
        let (a, b, c) = (chosen[chosen.startIndex], chosen[chosen.startIndex + 1], chosen[chosen.startIndex + 2])
        let frames = { (icao: String) in others[icao]!.flatMap(Self.beast) }
        server.send(frames(a) + frames(c))
        pusher.send(frames(b) + frames(c))
        let sent = (a: others[a]!.count, b: others[b]!.count, c: others[c]!.count)

        let client = try await SocketTestClient.connect(path: socket)
        var seen = Set<String>()
        let wanted = replayed.union([a, b, c])
        let deadline = Date().addingTimeInterval(30)
        while !seen.isSuperset(of: wanted), Date() < deadline {
            _ = await client.waitForLines(timeout: 1) { _ in false }
            let frames = client.objects(ofType: "frame")
            seen = Set((frames.last?["aircraft"] as? [[String: Any]] ?? []).compactMap { $0["icao"] as? String })
        }
        #expect(seen.isSuperset(of: wanted), "missing: \(wanted.subtracting(seen))")
        let hello = try #require(client.objects(ofType: "hello").first)
        #expect(hello["source"] as? String == "replay+beast")

        // Each source's frames on the statistics line (SIGUSR1 asks for it at once).
        kill(daemon.process.processIdentifier, SIGUSR1)
        #expect(daemon.waitFor("duplicates", timeout: 20), "\(daemon.stderr)")
        let totals = daemon.stderr.split(separator: "\n").last { $0.contains("totals:") }.map(String.init) ?? ""
        let connected = "beast-in 127.0.0.1:\(server.port)"
        let listening = "beast-listen 127.0.0.1:\(listenPort)"
        // C's frames reached us twice: each once tracked and once a duplicate, whichever
        // source was first.
        let counts = [connected, listening].map { label -> (frames: Int, duplicates: Int)? in
            guard
                let range = totals.range(
                    of: "\(label) (\\d+) frames( \\((\\d+) duplicates\\))?", options: .regularExpression)
            else { return nil }
            let numbers = totals[range].dropFirst(label.count).split(whereSeparator: { !$0.isNumber }).compactMap {
                Int($0)
            }
            return (numbers[0], numbers.count > 1 ? numbers[1] : 0)
        }
        let beastIn = try #require(counts[0], "\(totals)")
        let pushed = try #require(counts[1], "\(totals)")
        #expect(beastIn.frames + pushed.frames == sent.a + sent.b + sent.c, "\(totals)")
        #expect(beastIn.duplicates + pushed.duplicates == sent.c, "\(totals)")
        #expect(beastIn.frames + beastIn.duplicates == sent.a + sent.c, "\(totals)")
        #expect(pushed.frames + pushed.duplicates == sent.b + sent.c, "\(totals)")
        #expect(totals.range(of: "replay \\d+ frames", options: .regularExpression) != nil, "\(totals)")
        // The inputs' own counters: every frame passed the checks, once per connection.
        #expect(
            totals.contains(
                "\(connected): \(sent.a + sent.c) frames, 0 of them mlat, 0 failed the parity check, 0 malformed, 1 connections"
            ), "\(totals)")
        #expect(
            totals.contains(
                "\(listening): \(sent.b + sent.c) frames, 0 of them mlat, 0 failed the parity check, 0 malformed, 1 connections"
            ), "\(totals)")
        print(
            "several sources: \(seen.count) aircraft on the feed; \(totals.split(separator: "(").dropFirst().joined(separator: "("))"
        )
        await client.close()
    }
}
