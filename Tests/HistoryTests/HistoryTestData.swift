import Foundation
import History
import ModeS
import Tracking

/// Aircraft and folders the history's tests share.
enum HistoryTestData {
    /// The receiver of the tests, Amsterdam.
    static let receiver = GeoPoint(latitude: 52.3, longitude: 4.76)

    /// An aircraft `address` heard at `time`, at `latitude`/`longitude`, `altitude` feet.
    static func aircraft(
        _ address: UInt32, time: Double, latitude: Double = 52.4, longitude: Double = 4.9, altitude: Int = 12_000,
        speed: Double = 300, track: Double = 45, callsign: String? = "KLM1234"
    ) -> AircraftState {
        var state = AircraftState(icao: address, lastSeen: time, source: .adsb)
        state.position = GeoPoint(latitude: latitude, longitude: longitude)
        state.positionTime = time
        state.altitudeBaroFt = altitude
        state.groundSpeedKt = speed
        state.trackDeg = track
        state.verticalRateFpm = 0
        state.onGround = false
        state.callsign = callsign
        return state
    }

    /// A new empty directory under the system's temporary directory.
    static func directory(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-history-\(name)-\(UUID().uuidString.prefix(8))"
        ).path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes `path` and everything in it.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
