import Foundation
import Testing

/// A running `aviator-adsb` daemon, for tests: started with arguments and environment,
/// its standard error collected, stopped with a signal.
final class Daemon: @unchecked Sendable {
    let process = Process()
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var collected = Data()

    /// Everything the daemon has written to standard error so far.
    var stderr: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Starts `aviator-adsb` with `arguments` (and `--socket` in the temporary directory unless
    /// they name one or `defaultSocket` asks for the daemon's default), with at most
    /// `fileLimit` open files when set (through `ulimit -n` in a shell that then becomes the
    /// daemon, so signals reach the daemon itself); its standard input is `standardInput`
    /// when given (else this process's).
    init(
        _ arguments: [String], environment: [String: String] = [:], defaultSocket: Bool = false,
        fileLimit: Int? = nil, standardInput: Pipe? = nil
    ) throws {
        // A socket of its own, so tests never meet each other's daemon or a real one.
        let socket = FileManager.default.temporaryDirectory
            .appendingPathComponent("aviator-test-\(UUID().uuidString.prefix(8)).sock").path
        let arguments = arguments.contains("--socket") || defaultSocket ? arguments : arguments + ["--socket", socket]
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", BinaryRunner.binary.path] + arguments
        } else {
            process.executableURL = BinaryRunner.binary
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        // What a daemon keeps for its next start (the gain it settled on, a certificate) goes
        // to a folder of the test run's, not the user's state directory.
        merged["XDG_STATE_HOME"] = Self.stateHome
        merged["STATE_DIRECTORY"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        if let standardInput { process.standardInput = standardInput }
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.collected.append(data) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The state home of the test run's daemons.
    static let stateHome = FileManager.default.temporaryDirectory
        .appendingPathComponent("aviator-test-state-\(ProcessInfo.processInfo.processIdentifier)").path

    /// Waits up to `timeout` seconds for `text` to appear on standard error.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderr.contains(text) { return true }
            if !process.isRunning { return stderr.contains(text) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Sends `signal` and waits for the exit; returns the exit status and the seconds it took.
    /// A daemon still running `timeout` seconds later is killed (SIGKILL, which nothing can
    /// hold up) and that is recorded as a failure, so a stuck shutdown fails its test instead of
    /// stalling the suite. 20 s: a clean stop takes well under a second alone, but can take
    /// seconds on a machine busy with the other tests (the web server, for one, waits up to
    /// 5 s for a WebSocket client to answer its close, and a client in the busy test process
    /// may answer late); a test that times the stop checks the seconds itself.
    func stop(
        signal: Int32 = SIGINT, timeout: Double = 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (status: Int32, seconds: Double) {
        let start = Date()
        if process.isRunning { kill(process.processIdentifier, signal) }
        while process.isRunning, Date().timeIntervalSince(start) < timeout { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            Issue.record(
                "the daemon did not stop within \(timeout) s of signal \(signal); killed",
                sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.1)  // let the last standard error bytes arrive
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }

    /// Waits for the daemon to exit on its own.
    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        Thread.sleep(forTimeInterval: 0.1)
        return process.terminationStatus
    }
}

/// The fake `librtlsdr.so.0` of Tests/Fixtures/fake-rtlsdr, compiled once per test run.
enum FakeRTLSDR {
    /// The folder holding the compiled library, for LD_LIBRARY_PATH.
    static let directory: Result<String, Error> = Result {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("aviator-fake-rtlsdr-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = BinaryRunner.projectRoot.appendingPathComponent("Tests/Fixtures/fake-rtlsdr/fake_rtlsdr.c")
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = [
            ProcessInfo.processInfo.environment["CC"] ?? "cc", "-shared", "-fPIC", "-O2",
            "-Wl,-soname,librtlsdr.so.0", "-o", folder.appendingPathComponent("librtlsdr.so.0").path,
            source.path, "-lm"
        ]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else {
            throw NSError(
                domain: "FakeRTLSDR", code: Int(compiler.terminationStatus),
                userInfo: [NSLocalizedDescriptionKey: "cc failed to build the fake librtlsdr"])
        }
        return folder.path
    }

    /// The environment that makes the daemon load the fake, plus `settings`.
    static func environment(_ settings: [String: String] = [:]) throws -> [String: String] {
        var environment = settings
        environment["LD_LIBRARY_PATH"] = try directory.get()
        return environment
    }
}
