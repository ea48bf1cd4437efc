import Pipeline
import ServiceLifecycle
import Tracking

/// The ecosystem outputs of a running daemon, started together: the TCP servers, the frame
/// fanout that feeds them, and the aircraft.json publisher.
///
/// `start` opens every configured port (or fails with one `OutputError` line, having closed
/// whatever it already opened) and attaches to the tracker; `run()` serves until cancelled.
/// It is a swift-service-lifecycle `Service`: add it to the daemon's `ServiceGroup`.
package final class Outputs: Service, Sendable {
    /// The Beast server, when configured.
    package let beast: TCPBroadcastServer?
    /// The SBS server, when configured.
    package let sbs: TCPBroadcastServer?
    /// The AVR server, when configured.
    package let avr: TCPBroadcastServer?
    /// The aircraft.json publisher, when configured.
    package let json: AircraftJSONPublisher?
    /// The encoder between the tracker and the outputs.
    package let fanout: FrameFanout
    /// aircraft.json and receiver.json in memory, when a directory or the web server wants them.
    package let documents: AircraftJSONDocuments?

    private init(
        beast: TCPBroadcastServer?, sbs: TCPBroadcastServer?, avr: TCPBroadcastServer?,
        json: AircraftJSONPublisher?, fanout: FrameFanout, documents: AircraftJSONDocuments?
    ) {
        self.documents = documents
        self.beast = beast
        self.sbs = sbs
        self.avr = avr
        self.json = json
        self.fanout = fanout
    }

    /// Opens the configured outputs and attaches them to `pipeline` (frames) and `tracker`
    /// (aircraft). `version` goes into receiver.json; `onError` hears JSON write failures.
    package static func start(
        _ configuration: OutputConfiguration, pipeline: FramePipeline, tracker: LiveTracker, version: String,
        onError: @escaping @Sendable (String) -> Void
    ) async throws -> Outputs {
        if let directory = configuration.jsonDirectory { try AircraftJSONWriter.checkDirectory(directory) }
        var opened: [TCPBroadcastServer] = []
        func open(_ name: String, _ port: Int?) async throws -> TCPBroadcastServer? {
            guard let port else { return nil }
            do {
                var settings = TCPBroadcastServer.Configuration(name: name, host: configuration.host, port: port)
                settings.maxClients = configuration.maxClients
                let server = try await TCPBroadcastServer.bind(settings)
                opened.append(server)
                return server
            } catch {
                for server in opened { await server.shutdown() }
                throw error
            }
        }
        let beast = try await open("Beast", configuration.beastPort)
        let sbs = try await open("SBS", configuration.sbsPort)
        let avr = try await open("AVR", configuration.avrPort)
        let json = configuration.jsonDirectory.map {
            AircraftJSONPublisher(
                directory: $0, tracker: tracker, pipeline: pipeline, version: version, onError: onError)
        }
        let fanout = FrameFanout(beast: beast, sbs: sbs, avr: avr)
        fanout.attach(to: pipeline, tracker: tracker)
        let servesDocuments = configuration.jsonDirectory != nil || configuration.servesJSON
        let documents =
            servesDocuments ? AircraftJSONDocuments(tracker: tracker, pipeline: pipeline, version: version) : nil
        return Outputs(beast: beast, sbs: sbs, avr: avr, json: json, fanout: fanout, documents: documents)
    }

    /// Serves every output until the task is cancelled or, inside a `ServiceGroup`, a graceful
    /// shutdown begins; then closes them.
    package func run() async throws {
        await cancelWhenGracefulShutdown { await self.serve() }
    }

    private func serve() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.fanout.run() }
            for server in [beast, sbs, avr].compactMap({ $0 }) {
                group.addTask { try? await server.run() }
            }
            if let json {
                group.addTask { try? await json.run() }
            }
        }
    }

    /// Closes the TCP outputs now (for an early exit).
    package func shutdown() async {
        for server in [beast, sbs, avr].compactMap({ $0 }) { await server.shutdown() }
    }
}
