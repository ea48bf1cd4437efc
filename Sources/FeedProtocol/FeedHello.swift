import ModeS
import Support

/// A point on the Earth as the feed carries it: the receiver in the hello line, a client's
/// own observer in its view.
package struct FeedPosition: Sendable, Equatable, Hashable {
    /// Latitude in degrees.
    package var latitude: Double
    /// Longitude in degrees.
    package var longitude: Double
    /// Height above the WGS-84 ellipsoid in metres.
    package var altitudeMetres: Double

    /// A position from its parts.
    package init(latitude: Double, longitude: Double, altitudeMetres: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMetres = altitudeMetres
    }

    /// The position as a JSON object (`lat`, `lon`, `alt_m`).
    package var json: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("lat", latitude, decimals: 5)
        w.add("lon", longitude, decimals: 5)
        w.add("alt_m", altitudeMetres, decimals: 1)
        return w.result
    }

    /// Reads a position object: `lat` and `lon` required, `alt_m` 0 when absent or null
    /// (the height of a phone's user is rarely known, and matters little).
    package init(_ fields: JSONFields) throws(FeedParseError) {
        self.init(
            latitude: try fields.requiredNumber("lat"), longitude: try fields.requiredNumber("lon"),
            altitudeMetres: try fields.number("alt_m") ?? 0)
    }
}

/// The greeting the server sends on connect: who serves the feed, where the receiver is,
/// which source feeds it, and the client's starting view.
package struct FeedHello: Sendable, Equatable {
    /// Protocol version (`FeedMessage.protocolVersion`).
    package var version: Int
    /// The receiver's position; nil when the daemon has none.
    package var receiver: FeedPosition?
    /// The daemon's current data source.
    package var source: String
    /// Seconds between frames.
    package var frameIntervalSeconds: Double
    /// The client's starting view.
    package var view: RadarView
    /// The magnetic declination at the view's observer (the receiver when the view has none),
    /// degrees, east positive: what a client adds to a magnetic compass heading to get the
    /// true heading the feed's angles are measured from. Nil when there is no observer.
    package var declinationDeg: Double?

    /// A greeting with every field given.
    package init(
        version: Int = FeedMessage.protocolVersion, receiver: FeedPosition?, source: String,
        frameIntervalSeconds: Double, view: RadarView, declinationDeg: Double? = nil
    ) {
        self.version = version
        self.receiver = receiver
        self.source = source
        self.frameIntervalSeconds = frameIntervalSeconds
        self.view = view
        self.declinationDeg = declinationDeg
    }

    /// The greeting as one line of JSON, ending in a newline.
    package var jsonLine: String {
        var w = JSONObjectWriter(nullForMissing: true)
        w.add("type", "hello")
        w.add("version", version)
        w.add("server", "aviator-adsb")
        w.addRaw("receiver", receiver?.json ?? "null")
        w.add("source", source)
        w.add("frame_interval_s", frameIntervalSeconds, decimals: 3)
        w.addRaw("view", view.json)
        w.add("declination_deg", declinationDeg, decimals: FeedMessage.declinationDecimals)
        return w.result + "\n"
    }

    /// Reads a greeting; it must carry its version and a view.
    init(_ fields: JSONFields) throws(FeedParseError) {
        var receiver: FeedPosition?
        if let position = try fields.object("receiver"),
            let latitude = try position.number("lat"), let longitude = try position.number("lon")
        {
            receiver = FeedPosition(
                latitude: latitude, longitude: longitude,
                altitudeMetres: try position.number("alt_m") ?? 0)
        }
        guard let view = try fields.object("view") else { throw FeedParseError("hello without a \"view\" object") }
        self.init(
            version: try fields.requiredInteger("version"), receiver: receiver,
            source: try fields.string("source") ?? "unknown",
            frameIntervalSeconds: try fields.number("frame_interval_s") ?? 1,
            view: try RadarView(view), declinationDeg: try fields.number("declination_deg"))
    }
}
