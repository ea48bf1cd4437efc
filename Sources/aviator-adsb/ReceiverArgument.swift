import ArgumentParser
import FeedProtocol
import FoundationEssentials
import ModeS
import Support

/// The receiver's position as typed on the command line: `LAT,LON` or `LAT,LON,ALT_M` in
/// decimal degrees (and height above the WGS-84 ellipsoid in metres). The one parser of
/// `--receiver` for `run`, `decode` and `simulate`.
struct ReceiverArgument: ExpressibleByArgument, Sendable {
    /// Latitude and longitude.
    var point: GeoPoint
    /// Height in metres; nil when only `LAT,LON` was given.
    var altitudeMetres: Double?

    /// A position from its parts.
    init(point: GeoPoint, altitudeMetres: Double? = nil) {
        self.point = point
        self.altitudeMetres = altitudeMetres
    }

    /// Parses `LAT,LON[,ALT_M]`; nil (a usage error) for anything else, a latitude outside
    /// ±90°, a longitude outside ±180° or a height outside the one a feed client's observer
    /// may have (−600 to 15,000 m: from the Dead Sea shore to above any aircraft).
    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingWhitespace()) }
        guard parts.count == 2 || parts.count == 3, let latitude = parts[0], let longitude = parts[1],
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        if parts.count == 3 {
            guard let altitude = parts[2],
                (RadarView.Limits.minObserverAltitudeM...RadarView.Limits.maxObserverAltitudeM).contains(altitude)
            else {
                return nil
            }
            altitudeMetres = altitude
        } else {
            altitudeMetres = nil
        }
        point = GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// `LAT,LON[,ALT_M]` as it would be typed, for the `(default: …)` of `--help`.
    var defaultValueDescription: String {
        "\(point.latitude),\(point.longitude)" + (altitudeMetres.map { ",\($0)" } ?? "")
    }
}
