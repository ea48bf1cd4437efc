import Outputs

/// Where the server gets the JSON documents it serves under `/data`: the same
/// `aircraft.json` and `receiver.json` a `--json-dir` would hold, rendered in memory, so
/// tar1090 can be pointed at the daemon directly.
package protocol DataDocuments: Sendable {
    /// The current `aircraft.json`.
    func aircraftJSON() async -> String
    /// The current `receiver.json`.
    func receiverJSON() async -> String
}

extension AircraftJSONDocuments: DataDocuments {}
