import FeedProtocol
import ModeS

/// Where the sky is seen from: a point on the WGS-84 ellipsoid and its height above it. The
/// same value the feed carries as the receiver's position in its hello line.
package typealias Observer = FeedPosition

extension FeedPosition {
    /// An observer at `point`, `altitudeMetres` above the ellipsoid (0 when the antenna's
    /// height is unknown: a few tens of metres shift elevations by a fraction of a degree at
    /// typical distances).
    package init(_ point: GeoPoint, altitudeMetres: Double = 0) {
        self.init(latitude: point.latitude, longitude: point.longitude, altitudeMetres: altitudeMetres)
    }
}
