import ArgumentParser
import Daemon
import FeedProtocol
import FeedServer
import FoundationEssentials
import Identity
import Logging
import ModeS
import ModeSDemod
import Outputs
import Pipeline
import Receivers
import ServiceLifecycle
import Support
import Tracking
import UnixSignals
import Web

/// `aviator-adsb run` (the default): the daemon. Receives from a dongle (or a replay, or
/// rtl_tcp) and any Beast feeds, tracks aircraft and publishes the radar.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "The daemon: receive, track, publish the radar (the default command).",
        discussion: """
            With no options it opens RTL-SDR device 0 at 2.4 MS/s; when there is no dongle it \
            says "no RTL-SDR device found", falls back (unless --no-fallback) and keeps retrying \
            the dongle. --replay plays a recording through the same path instead, --rtltcp a \
            dongle served by rtl_tcp elsewhere.

            Several sources feed one radar at once: add --beast-in HOST:PORT (another \
            receiver's Beast output) and --beast-listen [ADDR:]PORT (Beast pushed in, such as \
            mlat-client results), each as often as needed. A frame heard by two sources within \
            2 s is tracked once; the statistics line counts each source's frames and duplicates.

            A network of receivers: --mqtt URL publishes this receiver (as --name) to an MQTT \
            broker; --mqtt-in URL gathers every receiver published there, each one a source of \
            its own (docs/network.md).

            Signals: SIGINT or SIGTERM stops it cleanly (the feed socket is removed). SIGHUP \
            logs that there is nothing to reload (options are read at start only) and carries \
            on; SIGUSR1 logs the statistics line at once.

            Clients: the feed and each TCP output serve at most --max-clients at once; one \
            more is refused (the feed sends it an error line, a TCP output closes it) and \
            counted, with at most one log line every 10 s. When the process runs out of file \
            descriptors, accepting pauses for a second and resumes; the daemon keeps running.
            """
    )

    @OptionGroup(title: "Sources")
    var sources: SourceOptions

    @Option(
        help: ArgumentHelp(
            "Receiver position: latitude, longitude and optional height in metres (-600 to 15000).",
            valueName: "lat,lon[,alt_m]"))
    var receiver: ReceiverArgument?

    @Option(
        help: ArgumentHelp(
            "Path of the feed socket (default: $XDG_RUNTIME_DIR/aviator-adsb.sock, else radar.sock in a directory of your own, ${TMPDIR:-/tmp}/aviator-adsb-UID, mode 700).",
            valueName: "path"))
    var socket: String?

    @Option(
        name: .customLong("max-clients"),
        help: ArgumentHelp("Most clients the feed and each TCP output serve at once (1 to 65536).", valueName: "n"))
    var maxClients: Int = FeedConfiguration.defaultMaxClients

    @Option(
        help: ArgumentHelp(
            "Degrees from true north the top of the radar points to, for clients that send no view.", valueName: "deg"))
    var heading: Double = 0

    @Option(
        name: .customLong("range-km"),
        help: ArgumentHelp(
            "Radius of the radar in kilometres (the zoom), 0.1 to 1000; aircraft beyond it are left out.",
            valueName: "km"))
    var rangeKm: Double = 50

    @Option(
        name: .customLong("frame-interval"),
        help: ArgumentHelp("Seconds between radar frames on the feed.", valueName: "s"))
    var frameInterval: Double = 1

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String = "info"

    @Flag(help: "Log only warnings and errors (as --log-level warning; a stricter --log-level stays).")
    var quiet = false

    @Option(
        name: .customLong("stats-interval"),
        help: ArgumentHelp("Seconds between statistics lines (0.1 to 86400).", valueName: "s"))
    var statsInterval: Double = 60

    @OptionGroup var openSky: OpenSkyOptions

    @Option(
        name: .customLong("route-api"),
        help: ArgumentHelp(
            "Look up each callsign's origin and destination at this adsbdb-compatible service (GET URL/callsign/CALLSIGN); only the callsign is sent. Off by default.",
            valueName: "url"))
    var routeAPI: String?

    @Option(
        name: .customLong("identity-store"),
        help: ArgumentHelp(
            "The identity store (aviator-adsb db build's or db update's output, data/identity-store.gz in the source tree): types, airlines, airports and offline routes. Loaded in the background. Given more than once, the first of the files that exists is loaded (an updated store before the installed one).",
            valueName: "file"))
    var identityStore: [String] = []

    @Option(
        name: .customLong("db-file"),
        help: ArgumentHelp(
            "An aircraft database in tar1090-db's format (icao;reg;type;flags;desc;year;ownop, plain or gzip), as readsb's --db-file: registrations, types and owners in aircraft.json and the feed. Loaded in the background.",
            valueName: "file"))
    var dbFile: String?

    @OptionGroup(title: "Outputs")
    var outputs: OutputOptions

    @OptionGroup(title: "Web")
    var web: WebOptions

    @OptionGroup(title: "Network of receivers (MQTT)")
    var mqtt: MQTTOptions

    @OptionGroup(title: "History")
    var history: HistoryOptions

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown --log-level '\(logLevel)'")
        }
        // Finite and within bounds: a NaN or a huge number would trap in the conversion to a
        // Duration, a tiny one flood the log or spin on the dongle.
        if !(statsInterval.isFinite && (0.1...86_400).contains(statsInterval)) {
            throw ValidationError("--stats-interval must be between 0.1 and 86400 seconds, got \(statsInterval)")
        }
        if let problem = radarConfiguration.problem { throw ValidationError(problem) }
        if !(1...65_536).contains(maxClients) {
            throw ValidationError("--max-clients must be between 1 and 65536, got \(maxClients)")
        }
        // The MQTT options belong to a broker: --mqtt (publishing), --mqtt-in (gathering).
        let brokers = [mqtt.url, sources.mqttIn].compactMap { $0 }
        if brokers.isEmpty, mqtt.name != nil || mqtt.caFile != nil {
            throw ValidationError("--name and --mqtt-ca-file apply to --mqtt or --mqtt-in")
        }
        if mqtt.caFile != nil, !brokers.contains(where: { $0.hasPrefix("mqtts://") }) {
            throw ValidationError("--mqtt-ca-file applies to an mqtts:// broker; plain mqtt:// does not use TLS")
        }
    }

    func run() async throws {
        SignalActions.ignoreDefaultActions()
        let level = quiet ? max(Logger.Level(rawValue: logLevel)!, .warning) : Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "aviator-adsb")
        let descriptors = DescriptorLimit.raise()
        let servers = 1 + outputs.tcpServerCount
        if servers * maxClients + DescriptorLimit.reserve > descriptors {
            logger.notice(
                "the limit of \(descriptors) open files is less than \(servers) × --max-clients \(maxClients) clients need: when it is reached, new clients wait"
            )
        }
        let daemon: Daemon
        do {
            daemon = try await Daemon.start(try configuration(logger: logger), logger: logger)
        } catch let error as DaemonError {
            throw RuntimeError(error.description)
        }
        do {
            try await daemon.run()
        } catch let error as DaemonError {
            throw RuntimeError(error.description)
        }
    }

    /// The daemon these options describe.
    func configuration(logger: Logger) throws -> DaemonConfiguration {
        let feed = FeedConfiguration(
            socketPath: socket ?? SocketPath.defaultPath(),
            radar: radarConfiguration, maxClients: maxClients,
            privateDirectory: socket == nil ? SocketPath.privateDirectory() : nil)
        var daemon = DaemonConfiguration(version: "aviator-adsb \(AviatorADSB.version)", feed: feed)
        daemon.receiver = receiver?.point
        daemon.receiverHeightMetres = receiver?.altitudeMetres ?? 0
        let stateDirectory =
            web.stateDirectory ?? StateDirectory.resolve(environment: ProcessInfo.processInfo.environment)
        daemon.sources = try sources.configuration(
            openSky: openSky, mqtt: mqtt, receiver: receiver?.point, stateDirectory: stateDirectory)
        daemon.history = history.settings(stateDirectory: stateDirectory, logger: logger)
        daemon.outputs = outputs.configuration
        daemon.web = try web.settings(logger: logger)
        let observer = receiver.map {
            FeedPosition(
                latitude: $0.point.latitude, longitude: $0.point.longitude,
                altitudeMetres: $0.altitudeMetres ?? 0)
        }
        daemon.mqttOut = try mqtt.publisherConfiguration(observer: observer, rangeKm: rangeKm)
        daemon.routes = try routeConfiguration()
        daemon.identityStore = identityStore.first { FileManager.default.fileExists(atPath: $0) } ?? identityStore.first
        daemon.aircraftDatabase = dbFile
        daemon.statisticsInterval = .milliseconds(Int(statsInterval * 1000))
        return daemon
    }

    /// The route service's settings, when `--route-api` is given.
    func routeConfiguration() throws -> RouteLookup.Configuration? {
        guard let routeAPI else { return nil }
        do throws(RouteError) {
            return try RouteLookup.Configuration(baseURL: routeAPI)
        } catch {
            throw RuntimeError("--route-api: \(error.message)")
        }
    }

    /// The radar options as the feed takes them.
    var radarConfiguration: RadarConfiguration {
        RadarConfiguration(headingDeg: heading, rangeKm: rangeKm, frameInterval: frameInterval)
    }
}
