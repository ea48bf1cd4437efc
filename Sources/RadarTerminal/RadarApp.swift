import FeedProtocol
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The interactive terminal radar: the feed client, the keyboard and the screen tied together
/// in one loop that redraws about ten times a second (often enough for a smooth sweep, cheap
/// enough for a slow SSH link, since only changed rows are written).
package final class RadarApp {
    /// The socket to read.
    package let socketPath: String
    /// Whether to draw in colour.
    package let colour: Bool
    private var settings: RadarSettings
    /// Whether the heading and the range were given on the command line; the parts not given
    /// are the daemon's own view from its greeting, so `radar` alone shows what the daemon
    /// was told, until a key changes the view.
    private let headingChosen: Bool, rangeChosen: Bool
    /// Whether a key changed the view; from then on every command names the whole view.
    private var keyPressed = false
    private let model = SharedModel()

    struct ModelState {
        var model: RadarModel
        var hello: FeedHello?
        var errorTime: Double = 0
    }

    /// The model, shared with the feed client's thread.
    private final class SharedModel: Sendable {
        let state = Mutex(ModelState(model: RadarModel()))
    }

    /// Seconds between redraws.
    static let tick = 0.1
    /// How long a refused command's message stays in the status line, seconds.
    static let errorShownFor = 5.0

    /// A radar reading `socketPath`, starting with `settings`, of which the command line gave
    /// the heading (`headingChosen`) and the range (`rangeChosen`).
    package init(socketPath: String, settings: RadarSettings, headingChosen: Bool, rangeChosen: Bool, colour: Bool) {
        self.socketPath = socketPath
        self.settings = settings
        self.headingChosen = headingChosen
        self.rangeChosen = rangeChosen
        self.colour = colour
        model.state.withLock { $0.model.socketPath = socketPath }
    }

    /// Runs until `q`, Ctrl-C, SIGINT, SIGTERM or SIGHUP, always leaving the terminal as it
    /// found it. The exit status: 0 after `q`, else 128 plus the signal's number, as a shell
    /// reports a process stopped by that signal (Ctrl-C counts as SIGINT).
    package func run() throws(FeedClientError) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let signals = SignalWatcher([SIGINT, SIGTERM, SIGHUP, SIGWINCH])
        defer { signals.cancel() }
        let screen = TerminalScreen()
        try screen.enter()
        defer { screen.restore() }

        let client = FeedClient(path: socketPath) { [model] event in
            model.state.withLock { state in RadarApp.apply(event, to: &state) }
        }
        if let command = settings.viewCommand(heading: headingChosen, range: rangeChosen) {
            client.send(viewCommand: command)
        }
        client.start()
        defer { client.stop() }

        var keys = KeyReader()
        var previous: [String] = []
        var lastSize = (width: 0, height: 0)
        while true {
            for number in signals.take() {
                if number == SIGWINCH { previous = [] } else { return 128 + number }
            }
            guard let bytes = screen.readInput(waiting: RadarApp.tick) else { return 128 + SIGHUP }
            for key in keys.keys(from: bytes) {
                switch handle(key) {
                case .quit: return key == .interrupt ? 128 + SIGINT : 0
                case .viewChanged: client.send(viewCommand: settings.viewCommand)
                case .redraw, .ignored: break
                }
            }
            let size = TerminalScreen.size() ?? (80, 24)
            if size != lastSize {
                // A new size: clear and write every row again.
                screen.write("\u{1B}[0m\u{1B}[2J")
                previous = []
                lastSize = size
            }
            let now = Date().timeIntervalSince1970
            let current: RadarModel = model.state.withLock { state in
                if !keyPressed, let hello = state.hello {
                    if !headingChosen { settings.headingDeg = RadarSettings.normalised(hello.view.headingDeg) }
                    if !rangeChosen { settings.rangeKm = hello.view.rangeKm }
                }
                if state.model.serverError != nil, now - state.errorTime > RadarApp.errorShownFor {
                    state.model.serverError = nil
                }
                return state.model
            }
            let canvas = RadarRenderer(settings: settings, colour: colour, sweep: true)
                .render(current, time: now, width: size.width, height: size.height)
            previous = draw(canvas, on: screen, over: previous)
        }
    }

    /// Writes the rows that differ from `previous`; the rows now on screen.
    private func draw(_ canvas: RadarCanvas, on screen: TerminalScreen, over previous: [String]) -> [String] {
        var rows: [String] = []
        var output = ""
        for row in 0..<canvas.height {
            let text = colour ? RetroPalette.coloured(canvas, row: row) : canvas.text(row: row)
            rows.append(text)
            if row >= previous.count || previous[row] != text {
                output += "\u{1B}[\(row + 1);1H" + text
            }
        }
        if !output.isEmpty { screen.write(output) }
        return rows
    }

    /// What a key press did.
    enum KeyResult {
        case quit, viewChanged, redraw, ignored
    }

    /// Applies a key to the settings.
    func handle(_ key: RadarKey) -> KeyResult {
        switch key {
        case .interrupt, .character("q"), .character("Q"):
            return .quit
        case .left:
            settings.turn(by: -RadarSettings.headingStep)
        case .right:
            settings.turn(by: RadarSettings.headingStep)
        case .character("+"), .character("="):
            settings.zoom(inward: true)
        case .character("-"), .character("_"):
            settings.zoom(inward: false)
        case .character("f"), .character("F"):
            settings.filter = settings.filter.next
        case .character("l"), .character("L"):
            settings.showLabels.toggle()
            return .redraw
        default:
            return .ignored
        }
        keyPressed = true
        return .viewChanged
    }

    /// Updates the model with what the feed client saw. A line that cannot be read is shown
    /// for a while like the daemon's errors: the frame on screen is then the last good one.
    static func apply(_ event: FeedClient.Event, to state: inout ModelState) {
        switch event {
        case .connected:
            state.model.connected = true
            state.model.problem = nil
            state.model.frame = nil
        case .disconnected(let problem):
            state.model.connected = false
            state.model.problem = problem.message
        case .line(.hello(let hello)):
            state.hello = hello
        case .line(.frame(let frame)):
            state.model.frame = frame
        case .line(.error(let message)):
            state.model.serverError = message
            state.errorTime = Date().timeIntervalSince1970
        case .unreadable(let error):
            state.model.serverError = "unreadable feed line: \(error.message)"
            state.errorTime = Date().timeIntervalSince1970
        case .line(.viewAcknowledged), .line(.other):
            break
        }
    }
}
