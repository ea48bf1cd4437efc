import Foundation
import NIOSSL
import Testing

/// The test's own feed clients, one for each place the sky view is seen from, each asking
/// for the sky from that place and keeping its frames, so that every view is judged against
/// the daemon's own azimuths and elevations for where the page stands.
final class Lookouts: @unchecked Sendable {
    /// One client: where it stands, the declination the feed gave there, and its frames.
    struct Log: @unchecked Sendable {
        let place: (lat: Double, lon: Double)
        let declination: Double
        let frames: FrameLog

        /// The aircraft of the newest frame, waiting up to `seconds` for one.
        func latest(within seconds: Double) async throws -> [String: [String: Any]]? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let aircraft = frames.latestAircraft(), !aircraft.isEmpty { return aircraft }
                try await Task.sleep(for: .milliseconds(100))
            }
            return nil
        }
    }

    private let url: String
    private let tls: TLSConfiguration
    private let rangeKm: Double
    private let lock = NSLock()
    private var logs: [String: Log] = [:]

    /// Clients of the feed at `url` (trusting what `tls` trusts) asking for `rangeKm`.
    init(url: String, tls: TLSConfiguration, rangeKm: Double) {
        self.url = url
        self.tls = tls
        self.rangeKm = rangeKm
    }

    /// Starts the client `name` at `place` and waits for its view to be acknowledged.
    func follow(_ name: String, at place: (lat: Double, lon: Double)) async throws -> Log {
        let frames = FrameLog()
        let view = #"{"type":"view","range_km":\#(rangeKm),"observer":{"lat":\#(place.lat),"lon":\#(place.lon)}}"#
        let (url, tls) = (url, tls)
        Task { try await frames.follow(url: url, tls: tls, view: view) }
        let deadline = Date().addingTimeInterval(60)
        while !frames.isAcknowledged, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let declination = try #require(frames.declinationDeg, "\(name): the acknowledgement has no declination")
        let log = Log(place: place, declination: declination, frames: frames)
        lock.withLock { logs[name] = log }
        return log
    }

    /// The client `name`, when started.
    func log(_ name: String) -> Log? { lock.withLock { logs[name] } }

    /// Stops every client at its next message.
    func stop() {
        for log in lock.withLock({ Array(logs.values) }) { log.frames.stop() }
    }
}
