import FeedProtocol
import Foundation
import ModeS
import Tracking

@testable import SkyProjection

/// Made-up skies for feed tests.
package enum TestSky {
    package static let observer = Observer(latitude: 52.0, longitude: 4.4, altitudeMetres: 10)

    /// A fully known airborne aircraft.
    package static func aircraft(
        icao: UInt32, latitude: Double, longitude: Double, altitudeFt: Int?,
        onGround: Bool? = false, lastSeen: Double = 100
    ) -> AircraftState {
        var state = AircraftState(icao: icao, lastSeen: lastSeen, source: .adsb)
        state.callsign = "TST\(icao % 1000)"
        state.category = "A3"
        state.squawk = "1000"
        state.position = GeoPoint(latitude: latitude, longitude: longitude)
        state.positionTime = lastSeen
        state.altitudeBaroFt = altitudeFt
        state.groundSpeedKt = 420.5
        state.trackDeg = 90
        state.verticalRateFpm = -640
        state.onGround = onGround
        state.messageCount = 10
        return state
    }

    /// `count` aircraft spread over a ring within 40 km of the observer.
    package static func crowd(_ count: Int) -> [AircraftState] {
        (0..<count).map { i in
            let angle = Double(i) / Double(max(count, 1)) * 2 * .pi
            let radiusDeg = 0.05 + 0.3 * Double(i % 7) / 7
            return aircraft(
                icao: 0x400000 + UInt32(i),
                latitude: observer.latitude + radiusDeg * cos(angle),
                longitude: observer.longitude + radiusDeg * sin(angle) * 1.6,
                altitudeFt: 1000 + 500 * (i % 70))
        }
    }

    package static func provider(_ aircraft: [AircraftState], source: String = "test", observer: Observer? = observer)
        -> ClosureSnapshotProvider
    {
        ClosureSnapshotProvider { RadarSnapshot(observer: observer, source: source, now: 101, aircraft: aircraft) }
    }

    /// A fresh socket path in /tmp (short enough for sun_path).
    package static func socketPath() -> String {
        "/tmp/aviator-feed-test-\(UUID().uuidString.prefix(8)).sock"
    }
}
