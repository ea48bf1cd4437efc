/// The fuzz targets: each takes one input of arbitrary bytes, feeds it to one of the parsers
/// that read data from outside the process, and checks what came out.
///
/// The same function serves two callers: the libFuzzer executables (`Fuzz/Targets`), which
/// trap on a failure so libFuzzer saves the input, and `FuzzTargetsTests`, which replays the
/// seed corpus and every saved regression input in a normal `swift test`. A crash inside the
/// code under test traps either way; a broken invariant is thrown as a `FuzzFailure`.
package enum FuzzTarget: String, Sendable, CaseIterable {
    /// Text lines of Mode S messages (AVR, timestamped AVR, bare hex, CSV), validated,
    /// decoded, positioned and written as JSON: what `aviator-adsb decode` does to a file.
    case messageLine = "message-line"
    /// A Beast byte stream cut into blocks, each frame validated, decoded and written as
    /// JSON: what the Beast TCP input does to a peer's stream.
    case beast
    /// Feed lines both ways: a client's commands as the server applies them, and the
    /// server's lines (hello, frame, view, error) as a client reads them.
    case feed
    /// An OpenSky `/api/states/all` response body, and the tracker states made from it.
    case opensky
    /// IQ samples in every format and at both rates through the streaming demodulator, in
    /// one block and cut into blocks of varying size.
    case demod
    /// A route service's answer for a callsign, as the route lookup reads it.
    case routes
    /// A message from an MQTT broker as the MQTT input reads it: a receiver's frame batch,
    /// announcement or status, or anything on any topic.
    case mqtt
    /// An aircraft database in tar1090-db's format (`--db-file`), and lookups in it.
    case aircraftDatabase = "aircraft-db"
    /// An identity store file (`aviator-adsb db build`'s output), and lookups in it.
    case identityStore = "identity-store"
    /// The query string of a history request, as the web server checks it before the store.
    case historyQuery = "history-query"
    /// What `db update` downloads for the standing data: a tar archive, gzip-compressed or
    /// not, and the paths picked from it.
    case tar

    /// Runs the target on `input`; throws when an invariant does not hold.
    package func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        switch self {
        case .messageLine: try MessageLineTarget.run(input)
        case .beast: try BeastTarget.run(input)
        case .feed: try FeedTarget.run(input)
        case .opensky: try OpenSkyTarget.run(input)
        case .demod: try DemodTarget.run(input)
        case .routes: try RouteTarget.run(input)
        case .mqtt: try MQTTTarget.run(input)
        case .aircraftDatabase: try AircraftDatabaseTarget.run(input)
        case .identityStore: try IdentityStoreTarget.run(input)
        case .historyQuery: try HistoryQueryTarget.run(input)
        case .tar: try TarTarget.run(input)
        }
    }

    /// Runs the target on `input`.
    package func run(_ input: [UInt8]) throws(FuzzFailure) {
        let result: Result<Void, FuzzFailure> = input.withUnsafeBytes { bytes in
            do throws(FuzzFailure) {
                try run(bytes)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The libFuzzer entry point's body: runs the target and traps on a broken invariant, so
    /// that libFuzzer records the input as a crash. Always returns 0 (keep the input).
    package func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> Int32 {
        do {
            try run(UnsafeRawBufferPointer(start: start, count: count))
        } catch {
            fatalError("fuzz target \(rawValue): \(error)")
        }
        return 0
    }
}

/// An invariant of a fuzz target that did not hold for an input: what was expected and what
/// came out instead.
package struct FuzzFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence: which check failed, with the values involved.
    package var description: String

    /// A failure with its sentence.
    package init(_ description: String) { self.description = description }
}

/// Throws `FuzzFailure(message())` unless `condition` holds.
@inline(__always)
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
    if !condition { throw FuzzFailure(message()) }
}
