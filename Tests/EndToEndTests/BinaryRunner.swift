import Foundation
import Testing

/// Runs the `aviator-adsb` binary built beside the test bundle, as a user would.
struct BinaryRunner {
    /// What one run printed and how it ended.
    struct Result {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The binary: SwiftPM builds it into the same folder as the test bundle.
    static var binary: URL {
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("aviator-adsb")
    }

    /// The project's root folder (where `Package.swift` is).
    static var projectRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Simulates a recording `file` with `arguments` into `folder` (`aviator-adsb simulate`);
    /// returns its location (its truth is beside it, `.truth.jsonl` added).
    static func simulate(into folder: URL, file: String = "sky.cu8", arguments: [String]) throws -> URL {
        let url = folder.appendingPathComponent(file)
        let made = try run(["simulate", "--out", url.path] + arguments)
        #expect(made.status == 0, "\(made.stderr)")
        return url
    }

    /// Runs the binary (or `executable`) with `arguments`, feeding `input` on standard input;
    /// `environment` adds to or replaces variables of the test's own environment. With
    /// `standardOutput` (a file such as /dev/full), its output goes there instead of being
    /// collected, and `stdout` is empty. A run still going after `timeout` seconds is killed
    /// and recorded as a failure, so a hang fails its test instead of stalling the suite.
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        standardOutput: FileHandle? = nil, executable: URL = binary, timeout: Double = 300,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        let inPipe = Pipe()
        if let standardOutput {
            process.standardOutput = standardOutput
        } else {
            process.standardOutput = out
        }
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        let watchdog = Watchdog(process: process, timeout: timeout)
        defer { watchdog.disarm(describing: arguments, sourceLocation: sourceLocation) }
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let errThread = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        errThread.start()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        if standardOutput != nil { try out.fileHandleForWriting.close() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errThread.isExecuting || !errThread.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return Result(
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus)
    }
}

/// Kills a child process that outlives its time, and records that as a test failure.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private let timeout: Double
    private var work: DispatchWorkItem?

    /// Arms a timer that sends SIGKILL to `process` (already running) after `timeout` seconds.
    init(process: Process, timeout: Double) {
        let pid = process.processIdentifier
        self.timeout = timeout
        let work = DispatchWorkItem { [self] in
            lock.withLock { fired = true }
            kill(pid, SIGKILL)
        }
        self.work = work
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: work)
    }

    /// Stops the timer once the process has exited; records a failure if it had to kill it.
    func disarm(describing what: [String], sourceLocation: SourceLocation) {
        work?.cancel()
        if lock.withLock({ fired }) {
            Issue.record(
                "`\(what.joined(separator: " "))` still ran after \(Int(timeout)) s and was killed",
                sourceLocation: sourceLocation)
        }
    }
}
