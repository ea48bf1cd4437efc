import FeedProtocol
import FeedServer
import IQ
import Logging
import ModeS
import Outputs
import Pipeline
import Receivers
import ServiceLifecycle
import Tracking
import UnixSignals
import Web

/// The composition root: a `DaemonConfiguration` made into the running daemon's parts and
/// its service group. `start` makes every part and claims every port and socket, so a bad
/// setting is one `DaemonError` line while nothing runs yet; `run` runs the group until
/// SIGINT or SIGTERM (or the task is cancelled).
///
/// The parts stay reachable (`pipeline`, `tracker`, `feed`, `web`), so a test can start a
/// daemon in its own process and look inside it.
package final class Daemon: Sendable {
    /// Every source delivers here.
    package let pipeline: FramePipeline
    /// The aircraft.
    package let tracker: LiveTracker
    /// The radar feed on its socket.
    package let feed: FeedServer
    /// The web server, when configured.
    package let web: WebServer?
    /// The statistics line.
    package let statistics: StatisticsReporter
    /// The services, in the order they start.
    package let services: [ServiceGroupConfiguration.ServiceConfiguration]
    private let logger: Logger

    init(
        pipeline: FramePipeline, tracker: LiveTracker, feed: FeedServer, web: WebServer?,
        statistics: StatisticsReporter, services: [ServiceGroupConfiguration.ServiceConfiguration], logger: Logger
    ) {
        self.pipeline = pipeline
        self.tracker = tracker
        self.feed = feed
        self.web = web
        self.statistics = statistics
        self.services = services
        self.logger = logger
    }

    /// Makes the daemon `configuration` describes, logging to `logger`: ports and the socket
    /// are claimed, nothing runs yet. Throws a `DaemonError` for a port in use, a socket it
    /// cannot claim or a setting the parts refuse.
    package static func start(_ configuration: DaemonConfiguration, logger: Logger) async throws -> Daemon {
        // The sources deliver to the pipeline, which hands each frame, decoded once, to the
        // outputs' taps and then to the tracker.
        let tracker = LiveTracker(receiver: configuration.receiver)
        let pipeline = FramePipeline(receiver: configuration.receiver, downstream: tracker)
        // The web port is tried first, like the outputs' below: taken, it is one clear line
        // while nothing needs stopping.
        if let web = configuration.web {
            do {
                try await WebServer.checkAddress(host: web.server.host, port: web.server.port)
            } catch let error as WebError {
                throw DaemonError(error.description)
            }
        }
        let outputs = try await startOutputs(configuration, pipeline: pipeline, tracker: tracker, logger: logger)
        // The sources are made (not started) before the socket is claimed, so the first
        // clients are greeted with the sources' names.
        let sources = try await makeSources(configuration.sources, into: pipeline, logger: logger)
        let feed = try await bindFeed(configuration, pipeline: pipeline, tracker: tracker, logger: logger)
        var parts = Parts(pipeline: pipeline, tracker: tracker, outputs: outputs, sources: sources, feed: feed)
        do {
            try parts.addPublishers(configuration, logger: logger)
        } catch {
            await feed.shutdown()
            throw error
        }
        // Read on a thread of its own: frames flow meanwhile, identities follow when loaded.
        IdentityLoader.start(
            storePath: configuration.identityStore, databasePath: configuration.aircraftDatabase,
            into: tracker.identities, logger: logger)
        return parts.daemon(configuration, logger: logger)
    }

    /// Runs every service until SIGINT or SIGTERM, or until the task is cancelled; a source
    /// that cannot go on (no dongle with `--no-fallback`, an unreadable recording) ends it
    /// with a `DaemonError`.
    package func run() async throws {
        let group = ServiceGroup(
            configuration: .init(services: services, cancellationSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as SourceSupervisor.NoDongle {
            await feed.shutdown()
            throw DaemonError(error.description)
        } catch let error as IQFileReader.ReadError {
            await feed.shutdown()
            throw DaemonError(error.description)
        }
    }

    /// Opens the configured outputs; nil when there are none.
    private static func startOutputs(
        _ configuration: DaemonConfiguration, pipeline: FramePipeline, tracker: LiveTracker, logger: Logger
    ) async throws -> Outputs? {
        var settings = configuration.outputs
        settings.maxClients = configuration.feed.maxClients
        settings.servesJSON = configuration.web != nil
        guard !settings.isEmpty else { return nil }
        let outputs: Outputs
        do {
            outputs = try await Outputs.start(
                settings, pipeline: pipeline, tracker: tracker, version: configuration.version
            ) { message in
                logger.warning("aircraft.json: \(message)")
            }
        } catch let error as OutputError {
            throw DaemonError(error.description)
        }
        let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        for (name, server) in [("Beast", outputs.beast), ("SBS", outputs.sbs), ("AVR", outputs.avr)] {
            if let server { logger.info("\(name) output on \(host):\(server.port)") }
        }
        if let directory = settings.jsonDirectory { logger.info("aircraft.json in \(directory)") }
        return outputs
    }

    /// Claims the feed's socket: a bad path or a running daemon is a clear error while
    /// nothing needs stopping.
    private static func bindFeed(
        _ configuration: DaemonConfiguration, pipeline: FramePipeline, tracker: LiveTracker, logger: Logger
    ) async throws -> FeedServer {
        let provider = LiveTrackerSnapshotProvider(
            tracker: tracker, pipeline: pipeline, heightMetres: configuration.receiverHeightMetres)
        let feed: FeedServer
        do {
            feed = try await FeedServer.bind(configuration: configuration.feed, provider: provider)
        } catch let error as FeedError {
            throw DaemonError(error.description)
        }
        logger.info("radar feed on \(configuration.feed.socketPath)")
        if configuration.receiver == nil {
            logger.notice("no --receiver position: the feed carries positions without sky projection")
        }
        return feed
    }
}
