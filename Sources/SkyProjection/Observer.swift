import ModeS
import FeedProtocol

/// Where the radar stands: the receiver's antenna (or the user), on the WGS-84 ellipsoid.
public struct Observer: Sendable, Equatable {
    /// Latitude in degrees, north positive.
    public var latitude: Double
    /// Longitude in degrees, east positive.
    public var longitude: Double
    /// Height in metres. Treated as height above the ellipsoid; the difference from height
    /// above sea level (the geoid, at most about 100 m) is small next to aircraft heights.
    public var heightMetres: Double

    /// An observer from its coordinates.
    public init(latitude: Double, longitude: Double, heightMetres: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.heightMetres = heightMetres
    }

    /// An observer at a receiver position (as given on the command line) and a height.
    public init(_ point: GeoPoint, heightMetres: Double = 0) {
        self.init(latitude: point.latitude, longitude: point.longitude, heightMetres: heightMetres)
    }

    /// The observer as the feed carries it.
    public var feedPosition: FeedPosition {
        FeedPosition(latitude: latitude, longitude: longitude, altitudeMetres: heightMetres)
    }
}
