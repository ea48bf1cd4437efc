import Logging
import ModeS
import Pipeline
import Receivers
import ServiceLifecycle

extension Daemon {
    /// The sources, made but not started, as services with what the statistics line and
    /// /metrics show of them.
    struct SourceSetup {
        /// One service per source (the dongle's with its fallback under a supervisor).
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        /// Sample bytes the local receiver lost so far.
        var droppedBytes: @Sendable () -> Int = { 0 }
        /// The network inputs' own counters, for the statistics line.
        var details: [@Sendable () -> String] = []
        /// The OpenSky fallback's requests by outcome (none without the dongle), for /metrics.
        var openSkyRequests: @Sendable () -> [(outcome: String, requests: Int)] = { [] }
    }

    /// Makes the sources of `configuration` into `pipeline` and names each among its sources
    /// (so the first feed clients are greeted with them). Listening ports are bound here: a
    /// port in use is a clear error before anything starts.
    static func makeSources(
        _ configuration: SourcesConfiguration, into pipeline: FramePipeline, logger: Logger
    ) async throws -> SourceSetup {
        var setup = SourceSetup()
        func add(_ source: some Source, _ name: String, endsQuietly: Bool = false) {
            pipeline.setSource(source.name, slot: source.label)
            setup.services.append(
                .init(
                    service: NamedService(name, SourceService(source, sink: pipeline)),
                    successTerminationBehavior: endsQuietly ? .ignore : .cancelGroup))
        }
        let demodulator = configuration.demodulator
        switch configuration.local {
        case .replay(var replay):
            replay.demodulator = demodulator
            let source = ReplaySource(configuration: replay, logger: logger)
            setup.droppedBytes = { source.droppedBytes }
            add(source, "replay", endsQuietly: true)
        case .rtltcp(let host, let port, let tuner):
            let source = RTLTCPSource(
                host: host, port: port, configuration: tuner, demodulatorOptions: demodulator, logger: logger)
            setup.droppedBytes = { source.droppedBytes }
            add(source, "rtltcp")
        case .dongle(let tuner, let fallbackConfiguration, let noFallback, let retryInterval):
            let dongle = RTLSDRSource(configuration: tuner, demodulatorOptions: demodulator, logger: logger)
            setup.droppedBytes = { dongle.droppedBytes }
            let fallback = OpenSkySource(configuration: fallbackConfiguration, logger: logger)
            setup.openSkyRequests = { fallback.requests.snapshot }
            let supervisor = SourceSupervisor(
                dongle: dongle, fallback: fallback, noFallback: noFallback, retryInterval: retryInterval,
                sink: pipeline, logger: logger)
            setup.services.append(.init(service: NamedService("rtl-sdr", supervisor)))
        case .none:
            break
        }
        for endpoint in configuration.beastIn {
            let input = BeastInput(host: endpoint.host, port: endpoint.port, logger: logger)
            setup.details.append { input.statistics.summary(label: input.label) }
            add(input, "beast-in")
        }
        for address in configuration.beastListen {
            let listener: BeastListener
            do {
                listener = try await BeastListener.bind(host: address.host, port: address.port, logger: logger)
            } catch let error as BeastListener.ListenFailure {
                throw DaemonError(error.description)
            }
            logger.info("\(listener.label): listening")
            setup.details.append { listener.statistics.summary(label: listener.label) }
            add(listener, "beast-listen")
        }
        if let mqttIn = configuration.mqttIn {
            let input = MQTTInput(
                configuration: mqttIn.configuration, filter: mqttIn.filter, ownName: mqttIn.ownName, logger: logger)
            logger.info("\(input.label): gathering \(mqttIn.filter)")
            setup.details.append { input.summary }
            add(input, "mqtt-in")
        }
        return setup
    }
}
