import ArgumentParser
import FoundationEssentials
import Logging
import Outputs
import Pipeline
import ServiceLifecycle
import Tracking

/// The options of the ecosystem outputs (Beast, SBS, AVR over TCP and aircraft.json), shared
/// by the commands that run the daemon.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .customLong("beast-out"),
        help: ArgumentHelp("Serve Beast binary frames on this TCP port (conventionally 30005).", valueName: "port"))
    var beastOut: Int?

    @Option(
        name: .customLong("sbs-out"),
        help: ArgumentHelp("Serve SBS/BaseStation lines on this TCP port (conventionally 30003).", valueName: "port"))
    var sbsOut: Int?

    @Option(
        name: .customLong("avr-out"),
        help: ArgumentHelp("Serve AVR raw lines (*HEX;) on this TCP port (conventionally 30002).", valueName: "port"))
    var avrOut: Int?

    @Flag(help: "Serve Beast, SBS and AVR on their conventional ports 30005, 30003 and 30002 (unless set otherwise).")
    var net = false

    @Option(
        help: ArgumentHelp(
            "Address the TCP outputs listen on; 0.0.0.0 for every interface. Default: 127.0.0.1.", valueName: "addr"))
    var bind: String?

    @Option(
        name: .customLong("json-dir"),
        help: ArgumentHelp(
            "Rewrite a dump1090-compatible aircraft.json (and receiver.json) in this directory once a second.",
            valueName: "dir"))
    var jsonDir: String?

    /// The outputs as the Radar library takes them.
    var configuration: OutputConfiguration {
        var configuration = OutputConfiguration()
        configuration.host = bind ?? configuration.host
        configuration.beastPort = beastOut ?? (net ? OutputConfiguration.conventionalBeastPort : nil)
        configuration.sbsPort = sbsOut ?? (net ? OutputConfiguration.conventionalSBSPort : nil)
        configuration.avrPort = avrOut ?? (net ? OutputConfiguration.conventionalAVRPort : nil)
        configuration.jsonDirectory = jsonDir
        return configuration
    }

    /// How many TCP outputs are configured.
    var tcpServerCount: Int {
        let configuration = configuration
        return [configuration.beastPort, configuration.sbsPort, configuration.avrPort].compactMap { $0 }.count
    }

    func validate() throws {
        if let problem = configuration.problem { throw ValidationError(problem) }
        if let bind {
            if bind.isEmpty { throw ValidationError("--bind needs an address, e.g. 127.0.0.1 or 0.0.0.0") }
            if tcpServerCount == 0 {
                throw ValidationError(
                    "--bind applies to the TCP outputs: add --net, --beast-out, --sbs-out or --avr-out")
            }
        }
        if let jsonDir {
            do {
                try AircraftJSONWriter.checkDirectory(jsonDir)
            } catch let error as OutputError {
                throw ValidationError("--json-dir: \(error.description)")
            }
        }
    }

    /// Opens the configured outputs on `pipeline` and `tracker` and returns them as lifecycle services (none
    /// when no output is configured), with the in-memory JSON documents when a directory or
    /// `servesJSON` (the web server) wants them, and the TCP servers (for their client counts).
    /// A port already taken is one `RuntimeError` line.
    func services(
        for pipeline: FramePipeline, tracker: LiveTracker, maxClients: Int, servesJSON: Bool, logger: Logger
    ) async throws
        -> (
            services: [ServiceGroupConfiguration.ServiceConfiguration], documents: AircraftJSONDocuments?,
            servers: [TCPBroadcastServer], fanout: FrameFanout?
        )
    {
        var configuration = configuration
        configuration.maxClients = maxClients
        configuration.servesJSON = servesJSON
        guard !configuration.isEmpty else { return ([], nil, [], nil) }
        let outputs: Outputs
        do {
            outputs = try await Outputs.start(
                configuration, pipeline: pipeline, tracker: tracker,
                version: "aviator-adsb \(AviatorADSB.version)"
            ) { message in
                logger.warning("aircraft.json: \(message)")
            }
        } catch let error as OutputError {
            throw RuntimeError(error.description)
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        for (name, server) in [("Beast", outputs.beast), ("SBS", outputs.sbs), ("AVR", outputs.avr)] {
            if let server { logger.info("\(name) output on \(host):\(server.port)") }
        }
        if let directory = configuration.jsonDirectory { logger.info("aircraft.json in \(directory)") }
        return (
            [.init(service: NamedService("outputs", outputs))], outputs.documents,
            [outputs.beast, outputs.sbs, outputs.avr].compactMap { $0 }, outputs.fanout
        )
    }
}
