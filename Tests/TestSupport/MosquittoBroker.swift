import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real `mosquitto` broker for tests, on a free loopback port, with its configuration in a
/// temporary folder of its own (anonymous access, no persistence: a restart forgets every
/// retained message, as a broker without a database does). `make deps` installs mosquitto;
/// tests that need it fail when it is missing under CI (CI=true) and skip with a message
/// elsewhere.
package final class MosquittoBroker: @unchecked Sendable {
    /// Where Debian installs the broker.
    package static let executable = "/usr/sbin/mosquitto"

    /// The port it listens on (the same across restarts).
    package let port: Int
    /// Its folder: configuration and log.
    package let directory: URL
    private var process: Process?

    /// Whether the broker is installed; when not, records an issue under CI and prints why
    /// the test is skipped elsewhere.
    package static func isAvailable(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if FileManager.default.isExecutableFile(atPath: executable) { return true }
        SharedData.missing("mosquitto missing (\(executable)): `make deps` installs it", sourceLocation: sourceLocation)
        return false
    }

    /// Starts a broker on a free port; `extraConfiguration` lines are added to its file.
    package init(extraConfiguration: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-mosquitto-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        let configuration =
            [
                "listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false",
                "log_dest file \(directory.appendingPathComponent("mosquitto.log").path)",
                "log_type error", "log_type warning", "log_type notice", "log_type information"
            ]
            + extraConfiguration
        try (configuration.joined(separator: "\n") + "\n")
            .write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The URL clients connect to.
    package var url: String { "mqtt://127.0.0.1:\(port)" }

    /// What the broker logged.
    package var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// Starts the broker (again) and waits until it accepts connections.
    package func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", directory.appendingPathComponent("mosquitto.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? RawConnection(port: port)) != nil { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw RawConnectionError("mosquitto did not start on port \(port):\n\(log)")
    }

    /// Stops the broker at once (SIGKILL: a child of the test process may inherit a signal
    /// mask that holds SIGTERM back) and waits for it to exit. Clients see their connection
    /// drop, as when a broker's machine fails.
    package func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        self.process = nil
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw RawConnectionError("bind: errno \(errno)") }
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
