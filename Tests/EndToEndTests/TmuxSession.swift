import Foundation

/// A detached tmux session on a private tmux server, for driving full-screen programs in
/// tests: start a command in a pane of a known size, send keys, and read the screen back.
final class TmuxSession {
    /// The tmux binary, if installed.
    static let binary: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// Whether tests may use tmux: when it is missing, tests skip locally; under CI=true they
    /// run and fail, since CI must have it.
    static var usable: Bool {
        binary != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    private let server = "aviator-test-\(UUID().uuidString.prefix(8))"
    private let session = "radar"

    /// Starts `command` (run by `sh -c`) in a new `width` × `height` pane.
    init(command: String, width: Int, height: Int) throws {
        guard Self.binary != nil else {
            throw NSError(
                domain: "TmuxSession", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "tmux is not installed (apt-get install -y tmux)"])
        }
        try run(["new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), command])
    }

    deinit { _ = try? run(["kill-server"]) }

    /// Sends keys by tmux name ("Left", "C-c") or as literal text.
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", session] + keys)
    }

    /// The pane's text now, one string per row; with `escapes`, with its colour sequences.
    func capture(escapes: Bool = false) throws -> [String] {
        try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", session]).components(separatedBy: "\n")
    }

    /// Changes the pane's size, as when the terminal window is resized.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", session, "-x", String(width), "-y", String(height)])
    }

    /// Captures until `condition` holds for the screen, or `timeout` seconds pass; the last capture.
    func waitForScreen(timeout: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = try capture()
        while !condition(screen), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            screen = try capture()
        }
        return screen
    }

    /// Runs tmux on this test's own server with no configuration file, in a UTF-8 locale.
    ///
    /// tmux is started with posix_spawn rather than Foundation's Process so that it gets a
    /// clean signal mask: the test runner blocks signals such as SIGCHLD and SIGTERM in its
    /// threads and a child inherits that mask; a tmux server started with it never learns
    /// that its panes' programs ended and cannot be stopped.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        guard let binary = Self.binary else { return "" }
        // The first command starts the tmux server, which keeps the descriptors it was given:
        // it must not hold a pipe this test reads to its end.
        let starts = arguments.first == "new-session"
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        // Tests choose colours themselves (the test runner may set NO_COLOR for its own output).
        environment.removeValue(forKey: "NO_COLOR")
        let argv = ([binary, "-L", server, "-f", "/dev/null", "-u"] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in argv + envp { free(pointer) } }

        // Output goes to a file rather than a pipe, so no other process spawned meanwhile can
        // inherit the pipe's end and hold this read open.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out")
            .path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, starts ? "/dev/null" : outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, &attributes, argv + [nil], envp + [nil])
        guard spawned == 0 else { throw Self.failure("posix_spawn \(binary)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return starts ? "" : (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    private static func failure(_ what: String) -> NSError {
        NSError(
            domain: "TmuxSession", code: Int(errno),
            userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))"])
    }
}
