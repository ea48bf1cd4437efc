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

    @OptionGroup(title: "Outputs")
    var outputs: OutputOptions

    @OptionGroup(title: "Web")
    var web: WebOptions

    @OptionGroup(title: "Network of receivers (MQTT)")
    var mqtt: MQTTOptions

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
        // The sources deliver to the pipeline, which hands each frame, decoded once, to the
        // outputs' taps and then to the tracker.
        let tracker = LiveTracker(receiver: receiver?.point)
        let pipeline = FramePipeline(receiver: receiver?.point, downstream: tracker)
        let descriptors = DescriptorLimit.raise()
        let servers = 1 + outputs.tcpServerCount
        if servers * maxClients + DescriptorLimit.reserve > descriptors {
            logger.notice(
                "the limit of \(descriptors) open files is less than \(servers) × --max-clients \(maxClients) clients need: when it is reached, new clients wait"
            )
        }
        // The web port is tried first, like the outputs' below: taken, it is one clear line
        // while nothing needs stopping.
        if let http = web.http {
            do {
                try await WebServer.checkAddress(host: http.host, port: http.port)
            } catch let error as WebError {
                throw RuntimeError(error.description)
            }
        }
        let (outputServices, documents, outputServers, fanout) = try await outputs.services(
            for: pipeline, tracker: tracker, maxClients: maxClients, servesJSON: web.http != nil, logger: logger)

        // The sources are made (not started) before the socket is claimed, so the first
        // clients are greeted with the sources' names.
        let setup = try await sources.setUp(
            pipeline: pipeline, openSky: openSky, mqtt: mqtt, receiver: receiver?.point,
            logger: logger)
        var services = setup.services
        let details = setup.details
        var sourceDetails: @Sendable () -> String? = {
            let counts = pipeline.sourceCounts
            let parts = (counts.count > 1 ? [counts.map(\.summary).joined(separator: ", ")] : []) + details.map { $0() }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
        // Claim the socket before anything starts: a bad path or a running daemon is a clear
        // error while nothing needs stopping.
        let feedConfiguration = FeedConfiguration(
            socketPath: socket ?? SocketPath.defaultPath(),
            radar: radarConfiguration, maxClients: maxClients,
            privateDirectory: socket == nil ? SocketPath.privateDirectory() : nil)
        let provider = LiveTrackerSnapshotProvider(
            tracker: tracker, pipeline: pipeline, heightMetres: receiver?.altitudeMetres ?? 0)
        let feed: FeedServer
        do {
            feed = try await FeedServer.bind(configuration: feedConfiguration, provider: provider)
        } catch let error as FeedError {
            throw RuntimeError(error.description)
        }
        logger.info("radar feed on \(feedConfiguration.socketPath)")
        if receiver == nil {
            logger.notice("no --receiver position: the feed carries positions without sky projection")
        }

        services.append(.init(service: NamedService("feed", feed)))
        let webServer: WebServer?
        do {
            let metrics = MetricsSources(
                pipeline: pipeline, tracker: tracker, openSkyRequests: setup.openSkyRequests, outputs: outputServers,
                queueDrops: { fanout.map { [("outputs", $0.droppedUpdates)] } ?? [] })
            webServer = try web.server(feed: feed, documents: documents, metrics: metrics, logger: logger)
        } catch {
            await feed.shutdown()
            throw error
        }
        if let server = webServer {
            services.append(.init(service: NamedService("web", server)))
            let source = sourceDetails
            sourceDetails = { [source(), server.statistics().summary].compactMap { $0 }.joined(separator: "; ") }
        }
        services.append(.init(service: NamedService("expiry", TrackerExpiry(tracker: tracker))))
        if let routes = try routeLookup(tracker: tracker, logger: logger) {
            services.append(.init(service: NamedService("routes", routes)))
        }
        services.append(contentsOf: outputServices)
        let observer = receiver.map {
            FeedPosition(
                latitude: $0.point.latitude, longitude: $0.point.longitude,
                altitudeMetres: $0.altitudeMetres ?? 0)
        }
        let publisher: MQTTPublisher?
        do {
            publisher = try mqtt.publisher(
                pipeline: pipeline, tracker: tracker, observer: observer, rangeKm: rangeKm, logger: logger)
        } catch {
            await feed.shutdown()
            throw error
        }
        if let publisher {
            services.append(.init(service: NamedService("mqtt-out", publisher)))
            let source = sourceDetails
            sourceDetails = { [source(), publisher.summary].compactMap { $0 }.joined(separator: "; ") }
        }
        let statistics = StatisticsReporter(
            pipeline: pipeline, tracker: tracker, interval: .milliseconds(Int(statsInterval * 1000)),
            droppedBytes: setup.droppedBytes, sourceDetails: sourceDetails, logger: logger)
        services.append(.init(service: NamedService("statistics", statistics)))
        let started = ContinuousClock.now
        services.append(
            .init(
                service: SignalActions(logger: logger) {
                    statistics.line(since: FrameCounters(), elapsed: ContinuousClock.now - started, total: true)
                }))

        let group = ServiceGroup(
            configuration: .init(
                services: services, cancellationSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as SourceSupervisor.NoDongle {
            await feed.shutdown()
            throw RuntimeError(error.description)
        } catch let error as IQFileReader.ReadError {
            await feed.shutdown()
            throw RuntimeError(error.description)
        }
    }

    /// The route service, when `--route-api` is given.
    func routeLookup(tracker: LiveTracker, logger: Logger) throws -> RouteLookup? {
        guard let routeAPI else { return nil }
        let configuration: RouteLookup.Configuration
        do throws(RouteError) {
            configuration = try RouteLookup.Configuration(baseURL: routeAPI)
        } catch {
            throw RuntimeError("--route-api: \(error.message)")
        }
        logger.info("routes from \(configuration.host): only callsigns are sent")
        return RouteLookup(
            configuration: configuration, callsigns: { tracker.callsigns() },
            publish: { tracker.setRoutes($0) }, logger: logger)
    }

    /// The radar options as the feed takes them.
    var radarConfiguration: RadarConfiguration {
        RadarConfiguration(headingDeg: heading, rangeKm: rangeKm, frameInterval: frameInterval)
    }
}
