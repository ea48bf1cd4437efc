import ArgumentParser
import FeedProtocol
import FoundationEssentials
import RadarTerminal

/// `aviator-adsb radar`: the terminal radar, a client of the daemon's feed socket.
struct RadarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radar",
        abstract: "The terminal radar, a client of the feed socket.",
        discussion: """
            A full-screen radar of the aircraft the daemon (aviator-adsb run) receives: range rings,
            a rotating sweep, a north marker that turns with the heading, aircraft as arrows that
            point the way they fly (heavier when low), and a list nearest first.
            Keys: left/right turn the heading, + and - zoom, l toggles labels, f cycles altitude
            filters, q quits. Colours are off with --no-color or when NO_COLOR is set.
            """
    )

    @Option(
        help:
            "Path of the feed socket (default: $XDG_RUNTIME_DIR/aviator-adsb.sock, else radar.sock in ${TMPDIR:-/tmp}/aviator-adsb-UID, which must be yours and mode 700)."
    )
    var socket: String?

    @Flag(name: .customLong("no-color"), help: "Draw without colours (also when NO_COLOR is set).")
    var noColor = false

    @Flag(help: "Print one frame as plain text and exit.")
    var once = false

    @Option(help: "Degrees from true north the top of the radar points to (default: the daemon's).")
    var heading: Double?

    @Option(
        name: .customLong("range-km"), help: "Radius of the radar in kilometres, 0.1 to 1000 (default: the daemon's).")
    var rangeKm: Double?

    @Option(help: "With --once: seconds to wait for a frame before giving up.")
    var timeout: Double = 5

    @Option(
        help: ArgumentHelp(
            "With --once: the size of the picture (default: the terminal's, else 100x32).", valueName: "COLSxROWS"))
    var size: String?

    func validate() throws {
        if let heading, !(heading.isFinite && heading >= 0 && heading <= 360) {
            throw ValidationError("--heading must be between 0 and 360, got \(heading)")
        }
        if let rangeKm, !RadarView.isDistance(rangeKm) {
            throw ValidationError(
                "--range-km must be between \(RadarView.show(RadarView.Limits.minRangeKm)) and \(RadarView.show(RadarView.Limits.maxRangeKm)), got \(RadarView.show(rangeKm))"
            )
        }
        if !(timeout.isFinite && timeout > 0) { throw ValidationError("--timeout must be more than 0, got \(timeout)") }
        if let size, parsedSize(size) == nil {
            throw ValidationError("--size must be COLUMNSxROWS with at least 20x10, got \(size)")
        }
    }

    func run() throws {
        let path = socket ?? SocketPath.defaultPath()
        // The default directory is in a place every user can write to: talk only to a daemon
        // behind a directory that is this user's own.
        if socket == nil, let directory = SocketPath.privateDirectory() {
            do throws(PrivateDirectory.Problem) {
                try PrivateDirectory.check(directory)
            } catch .missing {
                // Not there: no daemon has started yet; the client says so as for any missing socket.
            } catch {
                throw RuntimeError(error.description)
            }
        }
        let settings = RadarSettings(headingDeg: heading ?? 0, rangeKm: rangeKm ?? 50)
        if once {
            try printOnce(path: path, settings: settings)
            return
        }
        guard TerminalScreen.isInteractive else {
            throw RuntimeError("the radar needs a terminal; use --once to print one frame")
        }
        let environment = ProcessInfo.processInfo.environment
        let colour = !noColor && (environment["NO_COLOR"] ?? "").isEmpty
        let status: Int32
        do {
            status = try RadarApp(
                socketPath: path, settings: settings, headingChosen: heading != nil,
                rangeChosen: rangeKm != nil, colour: colour
            ).run()
        } catch {
            throw RuntimeError(error.message)
        }
        if status != 0 { throw ExitCode(status) }
    }

    private func printOnce(path: String, settings: RadarSettings) throws {
        let frame: FeedFrame
        do {
            frame = try FeedFrameFetcher.fetch(
                path: path, viewCommand: settings.viewCommand(heading: heading != nil, range: rangeKm != nil),
                timeout: timeout)
        } catch {
            throw RuntimeError(error.message)
        }
        var shown = settings
        shown.headingDeg = frame.headingDeg
        shown.rangeKm = frame.rangeKm
        let dimensions = size.flatMap(parsedSize) ?? TerminalScreen.size().map { ($0.width, $0.height) } ?? (100, 32)
        let model = RadarModel(frame: frame, connected: true, socketPath: path)
        let canvas = RadarRenderer(settings: shown, colour: false, sweep: false)
            .render(model, time: frame.time, width: dimensions.0, height: dimensions.1)
        var output = LineWriter()
        for line in canvas.plainLines { output.write(line: line) }
        try output.flush()
    }

    private func parsedSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
            columns >= 20, rows >= 10, columns <= 1000, rows <= 500
        else { return nil }
        return (columns, rows)
    }
}
