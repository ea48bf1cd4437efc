import Foundation
import Testing

/// dump1090-mutability, Debian's build of an established decoder, run as a peer for interop
/// tests: on its own free ports, writing its aircraft.json into a temporary directory.
final class Dump1090Peer: @unchecked Sendable {
    static let path = "/usr/bin/dump1090-mutability"

    let process = Process()
    /// Its Beast input port (it only listens there: the test connects and sends).
    let beastInPort: Int
    /// Its Beast output port.
    let beastOutPort: Int
    /// Where it writes aircraft.json.
    let jsonDirectory: URL
    /// Its standard input, for `--ifile -`.
    let input = Pipe()

    /// Whether the peer is installed; when not, fails the test under CI=true and prints why
    /// it is skipped elsewhere.
    static func available(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if FileManager.default.isExecutableFile(atPath: path) { return true }
        let message = "dump1090-mutability is not installed (make deps, or apt-get install dump1090-mutability)"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            print("skipping: \(message)")
        }
        return false
    }

    /// Starts the peer with `arguments` plus its five ports (Beast in, Beast out, raw out, raw
    /// in, SBS), the receiver position and the JSON directory. The ports should be free ones
    /// (`BlockingSocket.freePorts`), so parallel runs and a real dump1090 on the standard ports do
    /// not collide.
    init(_ arguments: [String], ports: [Int], receiver: (Double, Double), jsonDirectory: URL) throws {
        precondition(ports.count == 5)
        beastInPort = ports[0]
        beastOutPort = ports[1]
        self.jsonDirectory = jsonDirectory
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments =
            arguments + [
                "--net-bind-address", "127.0.0.1",
                "--net-bi-port", String(ports[0]), "--net-bo-port", String(ports[1]),
                "--net-ro-port", String(ports[2]), "--net-ri-port", String(ports[3]), "--net-sbs-port",
                String(ports[4]),
                "--lat", String(receiver.0), "--lon", String(receiver.1),
                "--write-json", jsonDirectory.path, "--quiet"
            ]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// Stops the peer: SIGTERM, then SIGKILL if it has not exited within two seconds (in
    /// --net-only mode it does not always act on SIGTERM).
    func stop() {
        try? input.fileHandleForWriting.close()
        process.stop()
    }
}

extension Process {
    /// Stops a peer: SIGTERM, then SIGKILL if it has not exited within two seconds.
    func stop() {
        guard isRunning else { return }
        terminate()
        let deadline = Date().addingTimeInterval(2)
        while isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}

/// The aircraft of a dump1090-style aircraft.json, by address.
struct AircraftFile {
    var messages: Int
    var aircraft: [String: [String: Any]]

    init?(_ url: URL) {
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["aircraft"] as? [[String: Any]]
        else { return nil }
        messages = root["messages"] as? Int ?? 0
        var aircraft: [String: [String: Any]] = [:]
        for object in list {
            if let hex = object["hex"] as? String { aircraft[hex] = object }
        }
        self.aircraft = aircraft
    }

    /// Reads `directory`/aircraft.json until its message count has not changed for `quiet`
    /// seconds (so the writer has caught up with everything it received), at most `timeout`.
    static func settled(in directory: URL, quiet: Double = 1.6, timeout: Double = 10) -> AircraftFile? {
        let url = directory.appendingPathComponent("aircraft.json")
        let deadline = Date().addingTimeInterval(timeout)
        var last: AircraftFile?
        var since = Date()
        while Date() < deadline {
            if let file = AircraftFile(url) {
                if file.messages != last?.messages {
                    last = file
                    since = Date()
                } else if file.messages > 0, Date().timeIntervalSince(since) >= quiet {
                    return file
                }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return last
    }

    /// The addresses of aircraft heard at least twice: dump1090 leaves out aircraft heard only
    /// once (a guard against bad decodes), so both sides are compared on that footing.
    var confirmed: Set<String> {
        Set(aircraft.filter { ($0.value["messages"] as? Int ?? 0) >= 2 }.keys)
    }
}
