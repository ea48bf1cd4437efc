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
}
