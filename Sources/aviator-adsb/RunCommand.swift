import ArgumentParser
import Foundation
import ModeSDemod
import Receivers
import Tracking
import Logging
import FeedProtocol
import FeedServer
import Outputs
import Web
import ServiceLifecycle

/// `aviator-adsb run` (the default): the daemon. Receives from a dongle (or a replay, or a
/// Beast feed), tracks aircraft and publishes the radar.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "The daemon: receive, track, publish the radar (the default command).",
        discussion: """
            With no options it opens RTL-SDR device 0 at 2.4 MS/s; when there is no dongle it \
            says "no RTL-SDR device found", falls back (unless --no-fallback) and keeps retrying \
            the dongle. --replay plays a recording through the same path instead.

            Signals: SIGINT or SIGTERM stops it cleanly (the feed socket is removed). SIGHUP \
            logs that there is nothing to reload (options are read at start only) and carries \
            on; SIGUSR1 logs the statistics line at once.

            Clients: the feed and each TCP output serve at most --max-clients at once; one \
            more is refused (the feed sends it an error line, a TCP output closes it) and \
            counted, with at most one log line every 10 s. When the process runs out of file \
            descriptors, accepting pauses for a second and resumes; the daemon keeps running.
            """
    )

    @Option(help: ArgumentHelp("RTL-SDR device by index or serial number.", valueName: "index|serial"))
    var device: String = "0"

    @Option(help: ArgumentHelp("Tuner gain in dB, or 'auto'.", valueName: "dB|auto"))
    var gain: String = "auto"

    @Option(help: "Frequency correction of the dongle in parts per million.")
    var ppm: Int = 0

    @Option(name: .customLong("sample-rate"), help: ArgumentHelp("Sample rate: 2.4M (default) or 2.0M; also 2400000 or 2.4.", valueName: "rate"))
    var sampleRate: SampleRate = .twoPointFourMega

    @Option(help: ArgumentHelp("Replay an IQ recording instead of a dongle; '-' reads standard input.", valueName: "file|-"))
    var replay: String?

    @Option(help: "Sample format of --replay: cu8, cs16 or cf32 (default: from the file extension, else cu8).")
    var format: SampleFormat?

    @Flag(help: "Replay at the recording's real-time pace instead of as fast as possible.")
    var throttle = false

    @Flag(help: "Start the replay again at its end.")
    var loop = false

    @Flag(inversion: .prefixedNo,
          help: "Subtract each frame that overlaps another signal and look for the reply beneath it: more frames in a busy sky, for a little more CPU time (docs/demodulator.md has the figures).")
    var cancelOverlaps = true

    @Option(name: .customLong("beast-in"), help: ArgumentHelp("Read frames from a Beast TCP feed (dump1090, readsb).", valueName: "host:port"))
    var beastIn: String?

    @Flag(name: .customLong("no-fallback"), help: "Exit with an error instead of falling back when there is no dongle.")
    var noFallback = false

    @Option(help: ArgumentHelp("Receiver position: latitude, longitude and optional height in metres.", valueName: "lat,lon[,alt_m]"))
    var receiver: ReceiverArgument?

    @Option(help: ArgumentHelp("Path of the feed socket (default: $XDG_RUNTIME_DIR/aviator-adsb.sock, else radar.sock in a directory of your own, ${TMPDIR:-/tmp}/aviator-adsb-UID, mode 700).", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("max-clients"), help: ArgumentHelp("Most clients the feed and each TCP output serve at once (1 to 65536).", valueName: "n"))
    var maxClients: Int = FeedConfiguration.defaultMaxClients

    @Option(help: ArgumentHelp("Degrees from true north the top of the radar points to, for clients that send no view.", valueName: "deg"))
    var heading: Double = 0

    @Option(name: .customLong("range-km"), help: ArgumentHelp("Radius of the radar in kilometres (the zoom), 0.1 to 1000; aircraft beyond it are left out.", valueName: "km"))
    var rangeKm: Double = 50

    @Option(name: .customLong("frame-interval"), help: ArgumentHelp("Seconds between radar frames on the feed.", valueName: "s"))
    var frameInterval: Double = 1

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String = "info"

    @Flag(help: "Log only warnings and errors (as --log-level warning; a stricter --log-level stays).")
    var quiet = false

    @Option(name: .customLong("stats-interval"), help: ArgumentHelp("Seconds between statistics lines (0.1 to 86400).", valueName: "s"))
    var statsInterval: Double = 60

    @Option(name: .customLong("retry-interval"), help: ArgumentHelp("Seconds between attempts to reopen a missing dongle (0.1 to 3600).", valueName: "s"))
    var retryInterval: Double = 5

    @OptionGroup var openSky: OpenSkyOptions

    @Option(name: .customLong("route-api"), help: ArgumentHelp("Look up each callsign's origin and destination at this adsbdb-compatible service (GET URL/callsign/CALLSIGN); only the callsign is sent. Off by default.", valueName: "url"))
    var routeAPI: String?

    @OptionGroup(title: "Outputs")
    var outputs: OutputOptions

    @OptionGroup(title: "Web")
    var web: WebOptions

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown --log-level '\(logLevel)'")
        }
        if gain != "auto", Double(gain) == nil { throw ValidationError("--gain takes a number of dB or 'auto'") }
        if replay != nil && beastIn != nil { throw ValidationError("--replay and --beast-in cannot be combined") }
        if let beastIn, BeastInput.endpoint(beastIn) == nil {
            throw ValidationError("--beast-in takes HOST:PORT, e.g. 127.0.0.1:30005")
        }
        if (throttle || loop) && replay == nil { throw ValidationError("--throttle and --loop apply to --replay") }
        // Finite and within bounds: a NaN or a huge number would trap in the conversion to a
        // Duration, a tiny one flood the log or spin on the dongle.
        if !(statsInterval.isFinite && (0.1...86_400).contains(statsInterval)) {
            throw ValidationError("--stats-interval must be between 0.1 and 86400 seconds, got \(statsInterval)")
        }
        if !(retryInterval.isFinite && (0.1...3_600).contains(retryInterval)) {
            throw ValidationError("--retry-interval must be between 0.1 and 3600 seconds, got \(retryInterval)")
        }
        if let problem = radarConfiguration.problem { throw ValidationError(problem) }
        if !(1...65_536).contains(maxClients) {
            throw ValidationError("--max-clients must be between 1 and 65536, got \(maxClients)")
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
        let rate = sampleRate
        let tracker = LiveTracker(receiver: receiver?.point)
        let descriptors = DescriptorLimit.raise()
        let servers = 1 + outputs.tcpServerCount
        if servers * maxClients + DescriptorLimit.reserve > descriptors {
            logger.notice("the limit of \(descriptors) open files is less than \(servers) × --max-clients \(maxClients) clients need: when it is reached, new clients wait")
        }
        let (outputServices, documents, outputServers) = try await outputs.services(
            for: tracker, maxClients: maxClients, servesJSON: web.http != nil, logger: logger)

        // The sources are made (not started) before the socket is claimed, so the first
        // clients are greeted with the source's name.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var droppedBytes: @Sendable () -> Int = { 0 }
        var sourceDetails: @Sendable () -> String? = { nil }
        var openSkyRequests: @Sendable () -> [(outcome: String, requests: Int)] = { [] }
        if let replay {
            let format = format ?? SampleFormat(fileName: replay) ?? .cu8
            var configuration = ReplaySource.Configuration(path: replay, format: format, sampleRate: rate)
            configuration.throttle = throttle
            configuration.loop = loop
            configuration.demodulator.cancelOverlaps = cancelOverlaps
            let source = ReplaySource(configuration: configuration, logger: logger)
            tracker.source = source.name
            services.append(.init(service: NamedService("replay", SourceService(source, tracker: tracker)),
                                  successTerminationBehavior: .ignore))
        } else if let beastIn, let endpoint = BeastInput.endpoint(beastIn) {
            let input = BeastInput(host: endpoint.host, port: endpoint.port, logger: logger)
            sourceDetails = { input.statistics.summary }
            tracker.source = input.name
            services.append(.init(service: NamedService("beast-in", SourceService(input, tracker: tracker))))
        } else {
            var configuration = RTLSDRDevice.Configuration()
            configuration.selector = .init(device)
            configuration.sampleRate = rate.hertz
            configuration.gain = gain == "auto" ? .automatic : .decibels(Double(gain)!)
            configuration.ppm = ppm
            var demodulatorOptions = StreamingDemodulator.Options()
            demodulatorOptions.cancelOverlaps = cancelOverlaps
            let dongle = RTLSDRSource(configuration: configuration, demodulatorOptions: demodulatorOptions, logger: logger)
            droppedBytes = { dongle.droppedBytes }
            let fallback = try openSky.source(receiver: receiver?.point, logger: logger)
            openSkyRequests = { fallback.requests.snapshot }
            services.append(.init(service: NamedService("rtl-sdr", SourceSupervisor(
                dongle: dongle, fallback: fallback, noFallback: noFallback,
                retryInterval: .milliseconds(Int(retryInterval * 1000)), tracker: tracker, logger: logger))))
        }
        // Claim the socket before anything starts: a bad path or a running daemon is a clear
        // error while nothing needs stopping.
        let feedConfiguration = FeedConfiguration(socketPath: socket ?? SocketPath.defaultPath(),
                                                  radar: radarConfiguration, maxClients: maxClients,
                                                  privateDirectory: socket == nil ? SocketPath.privateDirectory() : nil)
        let provider = LiveTrackerSnapshotProvider(tracker: tracker, heightMetres: receiver?.altitudeMetres ?? 0)
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
            let metrics = MetricsSources(tracker: tracker, openSkyRequests: openSkyRequests, outputs: outputServers)
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
        let statistics = StatisticsReporter(
            tracker: tracker, interval: .milliseconds(Int(statsInterval * 1000)),
            droppedBytes: droppedBytes, sourceDetails: sourceDetails, logger: logger)
        services.append(.init(service: NamedService("statistics", statistics)))
        let started = ContinuousClock.now
        services.append(.init(service: SignalActions(logger: logger) {
            statistics.line(since: LiveTracker.Counters(), elapsed: ContinuousClock.now - started, total: true)
        }))

        let group = ServiceGroup(configuration: .init(
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
        return RouteLookup(configuration: configuration, callsigns: { tracker.callsigns() },
                           publish: { tracker.setRoutes($0) }, logger: logger)
    }

    /// The radar options as the feed takes them.
    var radarConfiguration: RadarConfiguration {
        RadarConfiguration(headingDeg: heading, rangeKm: rangeKm, frameInterval: frameInterval)
    }
}
