import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// The web server of the running binary: the feed over WebSocket, and a client's own
/// observer, checked against an independent geodesy library on both transports.
@Suite(.serialized) struct WebEndToEndTests {
    /// The receiver of the replay, and a client 20 km north of it on a hill.
    static let receiver = (lat: 52.3, lon: 4.75, alt: 5.0)
    static let observer = (lat: 52.479_86, lon: 4.75, alt: 25.0)

    /// The port a daemon's web server reports once it listens.
    static func webPort(of daemon: Daemon, scheme: String = "http") throws -> Int {
        guard daemon.waitFor("serving the radar on \(scheme)://127.0.0.1:", timeout: 20) else {
            throw EndToEndFailure("the web server did not start:\n\(daemon.stderr)")
        }
        let line = daemon.stderr.split(separator: "\n").first { $0.contains("serving the radar on") } ?? ""
        guard let range = line.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
            let port = Int(line[range].dropFirst("127.0.0.1:".count).dropLast())
        else {
            throw EndToEndFailure("no port in: \(line)")
        }
        return port
    }

    /// The view command that moves the client to `observer`.
    static var viewCommand: String {
        #"{"type":"view","range_km":400,"observer":{"lat":\#(observer.lat),"lon":\#(observer.lon),"alt_m":\#(observer.alt)}}"#
    }

    @Test(.requires(.venvModule("pymap3d"))) func anObserverOfItsOwnSeesWhatPymap3dComputesOnBothTransports()
        async throws
    {
        guard let python = Self.geodesyPython() else { return }
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/busy-airport.cu8").path
        let socket = "/tmp/aviator-web-e2e-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try Daemon([
            "--replay", sample, "--throttle", "--loop", "--socket", socket,
            "--receiver", "\(Self.receiver.lat),\(Self.receiver.lon),\(Self.receiver.alt)",
            "--http", "127.0.0.1:0", "--frame-interval", "1"
        ])
        defer { _ = daemon.stop() }
        let port = try Self.webPort(of: daemon)

        // WebSocket: wait for the acknowledgement, then for a frame with enough aircraft.
        let box = Messages()
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/feed", configuration: .init(maxFrameSize: 8 << 20),
            logger: Logger(label: "e2e")
        ) { inbound, outbound, _ in
            var acknowledged = false
            for try await message in inbound.messages(maxSize: 8 << 20) {
                guard case .text(let text) = message else { continue }
                if text.contains("\"type\":\"hello\"") { try await outbound.write(.text(Self.viewCommand)) }
                if text.contains("\"type\":\"view\"") { acknowledged = true }
                if acknowledged, text.contains("\"type\":\"frame\""), Self.placed(in: text).count >= 5 {
                    box.set(text)
                    break
                }
            }
        }
        let webFrame = try #require(box.value, "no frame with placed aircraft over WebSocket")
        try Self.compare(Self.placed(in: webFrame), python: python, transport: "WebSocket")

        // The Unix socket: the same command as a line.
        let feed = try BlockingSocket.connect(path: socket)
        #expect(feed.write(Array((Self.viewCommand + "\n").utf8)))
        var text = ""
        var frame: String?
        let deadline = Date().addingTimeInterval(15)
        while frame == nil, Date() < deadline, let bytes = feed.read() {
            text += String(decoding: bytes, as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let acknowledged = lines.firstIndex(where: { $0.contains("\"type\":\"view\"") }) else { continue }
            frame = lines[(acknowledged + 1)...].dropLast().map(String.init).first {
                $0.contains("\"type\":\"frame\"") && Self.placed(in: $0).count >= 5
            }
        }
        let socketFrame = try #require(frame, "no frame with placed aircraft on the Unix socket")
        try Self.compare(Self.placed(in: socketFrame), python: python, transport: "Unix socket")
        #expect(!daemon.stderr.contains("52.4798"), "the observer's position is never logged")
    }

    /// The aircraft of a frame line that have elevation and slant range.
    static func placed(in frame: String) -> [[String: Any]] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any],
            let aircraft = object["aircraft"] as? [[String: Any]]
        else { return [] }
        return aircraft.filter { $0["elevation_deg"] is Double && $0["slant_km"] is Double }
    }

    /// Compares each aircraft's azimuth, elevation and slant range with pymap3d's for the
    /// observer: within 0.05° and 50 m.
    static func compare(_ aircraft: [[String: Any]], python: URL, transport: String) throws {
        var points: [[String: Double]] = []
        for plane in aircraft {
            // The radar's height: geometric when known, else barometric.
            let feet = (plane["alt_geo_ft"] as? Double) ?? (plane["alt_baro_ft"] as? Double) ?? 0
            points.append([
                "lat": plane["lat"] as? Double ?? .nan, "lon": plane["lon"] as? Double ?? .nan,
                "h": feet * 0.3048, "lat0": observer.lat, "lon0": observer.lon, "h0": observer.alt
            ])
        }
        let run = Process()
        run.executableURL = python
        run.arguments = [BinaryRunner.projectRoot.appendingPathComponent("scripts/aer.py").path]
        let input = Pipe()
        let output = Pipe()
        run.standardInput = input
        run.standardOutput = output
        try run.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: points))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        run.waitUntilExit()
        let answers = try #require(try JSONSerialization.jsonObject(with: data) as? [[Double]])
        #expect(answers.count == aircraft.count)
        var worst = (azimuth: 0.0, elevation: 0.0, slant: 0.0)
        for (plane, reference) in zip(aircraft, answers) {
            let azimuth = try #require(plane["azimuth_deg"] as? Double)
            let elevation = try #require(plane["elevation_deg"] as? Double)
            let slant = try #require(plane["slant_km"] as? Double) * 1000
            var azimuthError = abs(azimuth - reference[0]).truncatingRemainder(dividingBy: 360)
            azimuthError = min(azimuthError, 360 - azimuthError)
            worst.azimuth = max(worst.azimuth, azimuthError)
            worst.elevation = max(worst.elevation, abs(elevation - reference[1]))
            worst.slant = max(worst.slant, abs(slant - reference[2]))
        }
        print(
            "\(transport): \(aircraft.count) aircraft from the client's observer; worst differences from pymap3d: "
                + String(
                    format: "azimuth %.4f°, elevation %.4f°, slant range %.1f m", worst.azimuth, worst.elevation,
                    worst.slant))
        #expect(worst.azimuth <= 0.05, "\(transport)")
        #expect(worst.elevation <= 0.05, "\(transport)")
        #expect(worst.slant <= 50, "\(transport)")
    }

    /// The Python with pymap3d that `make test` installs; nil (a failure under CI, a skip
    /// elsewhere) when it is missing.
    static func geodesyPython() -> URL? {
        venvPython(importing: "pymap3d", makeTarget: ".venv/.pymap3d")
    }

    /// The project's Python (`.venv`, which `make test` sets up) when it can import `module`;
    /// nil (a failure under CI, a skip elsewhere) when it cannot, naming the make target that
    /// installs it.
    static func venvPython(importing module: String, makeTarget: String) -> URL? {
        let python = BinaryRunner.projectRoot.appendingPathComponent(".venv/bin/python")
        let check = Process()
        check.executableURL = python
        check.arguments = ["-c", "import \(module)"]
        check.standardError = FileHandle.nullDevice
        if (try? check.run()) != nil {
            check.waitUntilExit()
            if check.terminationStatus == 0 { return python }
        }
        let message = "\(module) is missing: run `make test` (or `make \(makeTarget)`) to install it"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record(Comment(rawValue: message))
        } else {
            print("skipped: \(message)")
        }
        return nil
    }
}

/// The last message a WebSocket handler kept.
final class Messages: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: String?
    func set(_ text: String) { lock.withLock { kept = text } }
    var value: String? { lock.withLock { kept } }
}

/// An end-to-end test's own failure with a message.
struct EndToEndFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
