import Foundation
import ModeS
import Tracking

/// Frames for the output tests: hand-built replies of every downlink format the outputs
/// handle, and the real-shaped messages of a bundled sample.
package enum OutputTestFrames {
    /// A 56-bit reply of downlink format `df` with `fields` set (1-based bit numbers, as in
    /// the spec tables) and the parity of `icao` overlaid (or, for DF11, the plain CRC).
    package static func reply(df: Int, icao: UInt32, fields: [(Int, Int, UInt64)]) -> Frame {
        var bits = ModeSBits(bitCount: ModeSBits.bitCount(forDownlinkFormat: df))
        bits.setField(1, 5, UInt64(df))
        for (first, last, value) in fields { bits.setField(first, last, value) }
        let overlay: UInt32 = df == 11 || df == 17 || df == 18 ? 0 : icao
        if df == 11 || df == 17 || df == 18 { bits.setField(9, 32, UInt64(icao)) }
        return Frame(bits: CRC.withParity(bits, overlay: overlay), address: icao)
    }

    /// DF4 (altitude reply) or DF20 (Comm-B altitude reply): flight status `fs`.
    package static func altitudeReply(df: Int = 4, icao: UInt32, feet: Int, fs: UInt64 = 0) -> Frame {
        reply(df: df, icao: icao, fields: [(6, 8, fs), (20, 32, AltitudeCode.acField(feet)!)])
    }

    /// DF5 (identity reply) or DF21 (Comm-B identity reply).
    package static func identityReply(df: Int = 5, icao: UInt32, squawk: String, fs: UInt64 = 0) -> Frame {
        reply(df: df, icao: icao, fields: [(6, 8, fs), (20, 32, UInt64(IdentityCode.encode(squawk: squawk)!))])
    }

    /// DF0 (short air-air surveillance) or DF16 (long): vertical status `vs` (1 = on ground).
    package static func airAir(df: Int = 0, icao: UInt32, feet: Int, vs: UInt64 = 0) -> Frame {
        reply(df: df, icao: icao, fields: [(6, 6, vs), (20, 32, AltitudeCode.acField(feet)!)])
    }

    /// DF11 all-call reply with capability `ca`.
    package static func allCall(icao: UInt32, ca: UInt64 = 5) -> Frame {
        reply(df: 11, icao: icao, fields: [(6, 8, ca)])
    }

    /// A frame from a hex message whose CRC checks (DF11/17/18).
    package static func extendedSquitter(_ hex: String, timestamp: UInt64 = 0, signalLevel: Double = -10) -> Frame {
        let bits = ModeSBits(hex: hex)!
        return Frame(bits: bits, address: UInt32(bits.field(9, 32)), timestamp: timestamp, signalLevel: signalLevel)
    }

    /// The bundled busy-airport sample's truth file (in the repository, not ../shared).
    package static var busyAirportTruth: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/busy-airport.cu8.truth.jsonl")
    }

    /// Every message of the busy-airport sample as a frame with its time (seconds from the
    /// start): DF17 squitters, DF11 all-call replies and DF4/5/20/21 address/parity replies.
    package static func busyAirport() throws -> [(frame: Frame, time: Double)] {
        let text = try String(contentsOf: busyAirportTruth, encoding: .utf8)
        var frames: [(Frame, Double)] = []
        // A prefix test, not `contains`: Foundation's substring search is not safe across threads.
        for line in text.split(separator: "\n") where line.hasPrefix("{\"type\":\"message\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let hex = object["hex"] as? String, let icaoText = object["icao"] as? String,
                let icao = UInt32(icaoText, radix: 16), let time = object["t"] as? Double,
                let bits = ModeSBits(hex: hex)
            else { continue }
            frames.append((Frame(bits: bits, address: icao, timestamp: UInt64(time * 12e6), signalLevel: -20), time))
        }
        return frames
    }
}
