import Foundation
import HummingbirdWSClient
import Logging
import NIOSSL
import Testing

/// Headless Chromium driving the web app through scripts/webapp_browser.py, and a feed
/// client of the test's own that keeps every frame, so the page can be judged against the
/// daemon itself.
enum HeadlessBrowser {
    /// Whether Chromium is installed; when not, a failure under CI (CI=true) and a skip
    /// elsewhere, with the way to install it.
    static func available(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let names = ["chromium", "chromium-browser", "google-chrome"]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found =
            ProcessInfo.processInfo.environment["CHROMIUM"] != nil
            || names.contains { name in
                path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
            }
        if found { return true }
        let message = "chromium is missing: run `make deps` to install it (the web app's browser tests need it)"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            print("skipped: \(message)")
        }
        return false
    }

    /// Runs the driver script with `arguments` and returns its JSON report; the browser's
    /// whole session runs on a thread of its own, so the test's tasks go on meanwhile.
    static func run(_ arguments: [String], timeout: Double = 150) async throws -> [String: Any] {
        let script = BinaryRunner.projectRoot.appendingPathComponent("scripts/webapp_browser.py").path
        let output: Data = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["python3", script] + arguments
                let out = Pipe()
                process.standardOutput = out
                process.standardInput = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                killer.cancel()
                continuation.resume(returning: data)
            }
            thread.start()
        }
        guard let report = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw EndToEndFailure("the browser driver printed no report: \(String(decoding: output, as: UTF8.self))")
        }
        return report
    }
}

/// The frames the daemon sent to a client of the test's own, by sequence number.
final class FrameLog: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [Int: String] = [:]
    private var stopped = false
    private var acknowledged = false
    private var declination: Double?

    /// Keeps a frame's text (the last 200 only).
    func keep(_ text: String) {
        guard let seq = Self.seq(of: text) else { return }
        lock.withLock {
            frames[seq] = text
            if frames.count > 200, let oldest = frames.keys.min() { frames[oldest] = nil }
        }
    }

    /// The aircraft of frame `seq` by ICAO address, when it came.
    func aircraft(seq: Int) -> [String: [String: Any]]? {
        guard let text = lock.withLock({ frames[seq] }),
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let list = object["aircraft"] as? [[String: Any]]
        else { return nil }
        return Dictionary(list.compactMap { plane in (plane["icao"] as? String).map { ($0, plane) } }) { first, _ in
            first
        }
    }

    /// The aircraft of the newest frame kept, when there is one.
    func latestAircraft() -> [String: [String: Any]]? {
        lock.withLock { frames.keys.max() }.flatMap(aircraft(seq:))
    }

    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
    var isAcknowledged: Bool { lock.withLock { acknowledged } }
    /// The magnetic declination at the view's observer, from the acknowledgement.
    var declinationDeg: Double? { lock.withLock { declination } }

    /// The view command was acknowledged with `text`.
    func acknowledge(_ text: String) {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        lock.withLock {
            acknowledged = true
            declination = object?["declination_deg"] as? Double
        }
    }

    static func seq(of text: String) -> Int? {
        guard text.hasPrefix(#"{"type":"frame","seq":"#) else { return nil }
        return Int(text.dropFirst(#"{"type":"frame","seq":"#.count).prefix { $0.isNumber })
    }

    /// Reads the feed at `url` (ws:// or wss://, trusting what `tls` trusts) with `view` (a
    /// view command) until stopped, keeping frames made after the view was acknowledged.
    func follow(url: String, tls: TLSConfiguration? = nil, view: String) async throws {
        try await WebSocketClient.connect(
            url: url, configuration: .init(maxFrameSize: 8 << 20), tlsConfiguration: tls,
            logger: Logger(label: "browser-e2e")
        ) { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 8 << 20) {
                guard case .text(let text) = message else { continue }
                if text.hasPrefix(#"{"type":"hello""#) { try await outbound.write(.text(view)) }
                if text.hasPrefix(#"{"type":"view""#) { self.acknowledge(text) }
                if self.isAcknowledged { self.keep(text) }
                if self.isStopped { break }
            }
        }
    }
}
