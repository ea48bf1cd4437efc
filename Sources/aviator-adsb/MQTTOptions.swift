import ArgumentParser
import FeedProtocol
import FoundationEssentials
import Logging
import MQTT
import Outputs
import Pipeline
import ReceiverNetwork
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options of the network of receivers: publishing to an MQTT broker (`--mqtt`), the
/// name to publish as, Home Assistant sensors, and the connection settings shared with the
/// MQTT input (`--mqtt-in`, a source option). Credentials come from the environment
/// (AVIATOR_MQTT_USERNAME, AVIATOR_MQTT_PASSWORD), never from the command line.
struct MQTTOptions: ParsableArguments {
    @Option(
        name: .customLong("mqtt"),
        help: ArgumentHelp(
            "Publish this receiver to an MQTT broker: frames, aircraft, status and its position rounded to 0.1° (docs/network.md). Credentials from AVIATOR_MQTT_USERNAME and AVIATOR_MQTT_PASSWORD.",
            valueName: "mqtt[s]://host[:port]"))
    var url: String?

    @Option(
        help: ArgumentHelp(
            "This receiver's name in the network, in its topics (aviator/NAME/...): letters, digits, '.', '_', '-' (default: the host name).",
            valueName: "name"))
    var name: String?

    @Flag(
        name: .customLong("mqtt-homeassistant"),
        help:
            "With --mqtt: announce Home Assistant sensors (aircraft in range, nearest aircraft's callsign, distance, elevation) by MQTT discovery and update them every 5 s."
    )
    var homeAssistant = false

    @Option(
        name: .customLong("mqtt-version"),
        help: ArgumentHelp(
            "MQTT protocol version for --mqtt and --mqtt-in: 5 (default; aircraft messages expire) or 3.1.1.",
            valueName: "5|3.1.1"))
    var version: String = MQTTConfiguration.ProtocolVersion.v5.rawValue

    @Option(
        name: .customLong("mqtt-ca-file"),
        help: ArgumentHelp(
            "PEM file of the CA certificates to trust for mqtts:// (default: the system's).", valueName: "file"))
    var caFile: String?

    @Option(
        name: .customLong("mqtt-keepalive"),
        help: ArgumentHelp(
            "Seconds between keepalive pings (5 to 3600); the broker declares a silent receiver offline after 1.5 times this.",
            valueName: "s"))
    var keepalive: Int = 30

    func validate() throws {
        if let url { try Self.broker(url, option: "--mqtt") }
        if let name, let problem = ReceiverName.problem(name) { throw ValidationError("--name: \(problem)") }
        if MQTTConfiguration.ProtocolVersion(rawValue: version) == nil {
            throw ValidationError("--mqtt-version takes 5 or 3.1.1, not '\(version)'")
        }
        if !(5...3600).contains(keepalive) {
            throw ValidationError("--mqtt-keepalive must be between 5 and 3600 seconds, got \(keepalive)")
        }
        if homeAssistant && url == nil { throw ValidationError("--mqtt-homeassistant needs --mqtt") }
        if let caFile {
            if FileStatus(path: caFile)?.isDirectory == true {
                throw ValidationError(
                    "--mqtt-ca-file: \(caFile) is a directory; give the PEM file of the CA certificates")
            }
            if !FileManager.default.isReadableFile(atPath: caFile) {
                throw ValidationError("--mqtt-ca-file: cannot read \(caFile)")
            }
        }
        do {
            _ = try MQTTCredentials.from(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The broker of `url`, or a validation error naming `option`.
    @discardableResult
    static func broker(_ url: String, option: String) throws -> MQTTBroker {
        do {
            return try MQTTBroker(url: url)
        } catch {
            throw ValidationError("\(option): \(error.description)")
        }
    }

    /// The receiver's name: --name, else the host name.
    var receiverName: String {
        if let name { return name }
        var buffer = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return ReceiverName.fromHostName(host)
    }

    /// A client configuration for the broker at `url`, its identifier made of the receiver's
    /// name, `role` and a random suffix (two clients with one identifier would take turns
    /// disconnecting each other).
    func configuration(url: String, role: String) throws -> MQTTConfiguration {
        var configuration = MQTTConfiguration(
            broker: try Self.broker(url, option: role == "in" ? "--mqtt-in" : "--mqtt"),
            clientID:
                "aviator-\(receiverName.prefix(32))-\(role)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
        configuration.protocolVersion = MQTTConfiguration.ProtocolVersion(rawValue: version) ?? .v5
        configuration.keepaliveSeconds = keepalive
        configuration.caFile = caFile
        configuration.credentials = try MQTTCredentials.from(environment: ProcessInfo.processInfo.environment)
        return configuration
    }

    /// The publisher `--mqtt` asks for; nil without `--mqtt`.
    func publisherConfiguration(observer: FeedPosition?, rangeKm: Double) throws -> MQTTPublisher.Configuration? {
        guard let url else { return nil }
        var settings = MQTTPublisher.Configuration(
            mqtt: try configuration(url: url, role: "out"), name: receiverName,
            version: "aviator-adsb \(AviatorADSB.version)", observer: observer)
        settings.homeAssistant = homeAssistant
        settings.rangeKm = rangeKm
        return settings
    }
}
