import Foundation
import TestSupport
import Testing

/// readsb (../shared/peers/readsb), the decoder whose aircraft.json tar1090 and graphs1090 are
/// written for, run network-only as an interop peer: it connects to a Beast output of ours and
/// writes its own aircraft.json into a temporary directory.
final class ReadsbPeer: @unchecked Sendable {
    let process = Process()
    /// Where it writes aircraft.json and stats.json.
    let jsonDirectory: URL

    /// The peer's path, or nil (failing the test under CI=true, skipping with a message
    /// elsewhere) when ../shared does not have it.
    static func path(sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        SharedData.file("peers/readsb", sourceLocation: sourceLocation)
    }

    /// Starts the peer at `path`, connecting to our Beast output on `beastPort`, with the
    /// receiver position, writing its JSON into `jsonDirectory`, with `extra` arguments after
    /// those (`--db-file`, for one). readsb tries the connection once at start and then only
    /// every 30 s, so the port must be listening already.
    init(path: URL, beastPort: Int, receiver: (Double, Double), jsonDirectory: URL, extra: [String] = []) throws {
        self.jsonDirectory = jsonDirectory
        process.executableURL = path
        process.arguments =
            [
                "--net-only", "--net-connector=127.0.0.1,\(beastPort),beast_in", "--write-json=\(jsonDirectory.path)",
                "--lat=\(receiver.0)", "--lon=\(receiver.1)", "--quiet"
            ] + extra
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// Stops the peer.
    func stop() { process.stop() }
}
