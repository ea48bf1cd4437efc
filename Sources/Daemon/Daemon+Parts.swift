import FeedProtocol
import FeedServer
import History
import Identity
import Logging
import MQTT
import Outputs
import Pipeline
import ReceiverNetwork
import Receivers
import ServiceLifecycle
import Tracking
import Web

extension Daemon {
    /// The daemon's parts while `start` puts them together, and the services they become.
    struct Parts {
        let pipeline: FramePipeline
        let tracker: LiveTracker
        let outputs: Outputs?
        let sources: SourceSetup
        let feed: FeedServer
        var web: WebServer?
        var publisher: MQTTPublisher?
        var routes: RouteLookup?
        /// The history's writer and reader, when it is kept.
        var history: (writer: HistoryWriter, reader: HistoryReader)?

        init(
            pipeline: FramePipeline, tracker: LiveTracker, outputs: Outputs?, sources: SourceSetup, feed: FeedServer
        ) {
            self.pipeline = pipeline
            self.tracker = tracker
            self.outputs = outputs
            self.sources = sources
            self.feed = feed
        }

        /// Makes the web server, the MQTT publisher and the route service that
        /// `configuration` asks for.
        mutating func addPublishers(_ configuration: DaemonConfiguration, logger: Logger) throws {
            if let settings = configuration.mqttOut {
                do {
                    let publisher = try MQTTPublisher(
                        configuration: settings, pipeline: pipeline, tracker: tracker, logger: logger)
                    let sensors = settings.homeAssistant ? ", with Home Assistant sensors" : ""
                    logger.info("publishing to \(settings.mqtt.broker) as \(publisher.topics.prefix)\(sensors)")
                    self.publisher = publisher
                } catch {
                    throw DaemonError("--mqtt: \(error)")
                }
            }
            if let settings = configuration.history {
                let writer = HistoryWriter(
                    directory: settings.directory, retention: settings.retention, logger: logger)
                history = (writer, HistoryReader(directory: settings.directory, receiver: tracker.receiver))
            }
            if let settings = configuration.web, let documents = outputs?.documents {
                var server = settings.server
                server.logger = logger
                web = WebServer(
                    configuration: server, feed: feed, documents: documents, tls: settings.tls,
                    metrics: settings.metrics ? metricsSources : nil, history: history?.reader,
                    clock: { [tracker] in tracker.now })
            }
            if let route = configuration.routes {
                logger.info("routes from \(route.host): only callsigns are sent")
                let tracker = self.tracker
                routes = RouteLookup(
                    configuration: route,
                    // Offline data answers first: only callsigns it has no route for are sent.
                    callsigns: { tracker.callsigns().filter { tracker.identities.route(for: $0) == nil } },
                    publish: { tracker.setRoutes($0) },
                    logger: logger)
            }
        }

        /// What /metrics reads.
        var metricsSources: MetricsSources {
            let fanout = outputs?.fanout
            let publisher = self.publisher
            let servers = [outputs?.beast, outputs?.sbs, outputs?.avr].compactMap { $0 }
            let history = self.history
            return MetricsSources(
                pipeline: pipeline, tracker: tracker, openSkyRequests: sources.openSkyRequests,
                outputs: servers,
                queueDrops: {
                    // The fanout's queue, each TCP output's pending batch, the publisher's.
                    var drops = fanout.map { [("outputs", $0.droppedUpdates)] } ?? []
                    for server in servers {
                        drops.append(("\(server.configuration.name.lowercased())_out", server.statistics.framesDropped))
                    }
                    if let writer = history?.writer { drops.append(("history", writer.statistics.dropped)) }
                    return drops + (publisher?.queueDrops ?? [])
                })
        }

        /// What the statistics line adds after the figures: each source's frames when there are
        /// several (the 20 busiest, the rest summed), the sources' own counters, the web
        /// server's and the publisher's, the output queue's drops, and of the aircraft with an
        /// offline route how many were refused as implausible.
        var details: @Sendable () -> String? {
            let (pipeline, details, web, publisher) = (self.pipeline, sources.details, self.web, self.publisher)
            let fanout = outputs?.fanout
            let tracker = self.tracker
            let history = self.history?.writer
            return {
                let counts = pipeline.sourceCounts
                let listed = SourceCounts.busiest(counts, limit: 20)
                var parts = (counts.count > 1 ? [listed.map(\.summary).joined(separator: ", ")] : [])
                parts += details.map { $0() }
                if let web { parts.append(web.statistics().summary) }
                if let publisher { parts.append(publisher.summary) }
                if let history { parts.append(history.statistics.summary) }
                let routes = tracker.offlineRoutes
                if routes.offered > 0 {
                    parts.append(
                        "offline routes: \(routes.offered - routes.refused) shown, \(routes.refused) refused as implausible"
                    )
                }
                if let dropped = fanout?.droppedUpdates, dropped > 0 {
                    parts.append("\(dropped) frames dropped before the outputs (queue full)")
                }
                return parts.isEmpty ? nil : parts.joined(separator: "; ")
            }
        }

        /// The daemon, its services in the order they start.
        func daemon(_ configuration: DaemonConfiguration, logger: Logger) -> Daemon {
            var services = sources.services
            services.append(.init(service: NamedService("feed", feed)))
            if let web { services.append(.init(service: NamedService("web", web))) }
            services.append(.init(service: NamedService("expiry", TrackerExpiry(tracker: tracker))))
            if let routes { services.append(.init(service: NamedService("routes", routes))) }
            if let outputs { services.append(.init(service: NamedService("outputs", outputs))) }
            if let publisher { services.append(.init(service: NamedService("mqtt-out", publisher))) }
            if let history, let settings = configuration.history {
                let sampler = HistorySampler(
                    tracker: tracker, pipeline: pipeline, writer: history.writer, batchInterval: settings.batchSeconds)
                let service = HistoryService(
                    sampler: sampler, reader: history.reader, jsonDirectory: configuration.outputs.jsonDirectory,
                    tracker: tracker, logger: logger)
                services.append(.init(service: NamedService("history", service)))
            }
            let statistics = StatisticsReporter(
                pipeline: pipeline, tracker: tracker, interval: configuration.statisticsInterval,
                droppedBytes: sources.droppedBytes, sourceDetails: details, logger: logger)
            services.append(.init(service: NamedService("statistics", statistics)))
            let started = ContinuousClock.now
            services.append(
                .init(
                    service: SignalActions(logger: logger) {
                        statistics.line(since: FrameCounters(), elapsed: ContinuousClock.now - started, total: true)
                    }))
            return Daemon(
                pipeline: pipeline, tracker: tracker, feed: feed, web: web, statistics: statistics,
                services: services, logger: logger)
        }
    }
}
