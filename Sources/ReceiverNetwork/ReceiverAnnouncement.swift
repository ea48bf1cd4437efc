import FoundationEssentials
import ModeS
import Support

/// The payload of `aviator/NAME/receiver` (retained): where the receiver is, which version it
/// runs and what feeds it, as one JSON object:
/// `{"lat":52.3,"lon":4.7,"version":"aviator-adsb 1.0","sources":"replay"}`.
///
/// The position is there so that an aggregator can decode the receiver's frames locally
/// (surface positions and single CPR frames need a reference near the receiver). It is
/// rounded to 0.1° (about 10 km) before it leaves the machine, as for the OpenSky query:
/// close enough for decoding, far from the user's address. Publishing it at all is the
/// user's choice (`--mqtt`); without `--receiver` there is no position.
package struct ReceiverAnnouncement: Sendable, Equatable {
    /// The largest payload read.
    package static let maximumPayload = 4096
    /// Degrees the position is rounded to.
    package static let positionStep = 0.1

    /// The receiver's position, rounded; nil when it has none.
    package var position: GeoPoint?
    /// The program and version, e.g. "aviator-adsb 1.0".
    package var version: String
    /// What feeds it, as the radar's source ("rtl-sdr", "replay+beast").
    package var sources: String

    /// An announcement with the position rounded to `positionStep`.
    package init(position: GeoPoint?, version: String, sources: String) {
        self.position = position.map { point in
            GeoPoint(latitude: Self.rounded(point.latitude), longitude: Self.rounded(point.longitude))
        }
        self.version = version
        self.sources = sources
    }

    private static func rounded(_ degrees: Double) -> Double {
        (degrees / positionStep).rounded() * positionStep
    }

    /// The JSON object.
    package var json: String {
        var writer = JSONObjectWriter()
        writer.add("lat", position?.latitude, decimals: 1)
        writer.add("lon", position?.longitude, decimals: 1)
        writer.add("version", version)
        writer.add("sources", sources)
        return writer.result
    }

    /// The fields as JSON carries them.
    private struct Fields: Decodable {
        var lat: Double?
        var lon: Double?
        var version: String?
        var sources: String?
    }

    /// Reads a payload: a JSON object whose `lat` and `lon`, when present, are a position on
    /// the globe, and whose `version` and `sources`, when present, are short strings (control
    /// characters removed). Unknown fields are ignored; anything else throws.
    package static func decode(_ payload: [UInt8]) throws(NetworkPayloadError) -> ReceiverAnnouncement {
        guard payload.count <= maximumPayload else { throw .oversized(payload.count, limit: maximumPayload) }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(payload)) else {
            throw .malformed("a receiver announcement that is not a JSON object of the expected fields")
        }
        func text(_ value: String?, _ key: String) throws(NetworkPayloadError) -> String {
            guard let value else { return "" }
            guard value.utf8.count <= 200 else { throw .malformed("a receiver announcement whose \(key) is too long") }
            return String(
                String.UnicodeScalarView(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        }
        var position: GeoPoint?
        switch (fields.lat, fields.lon) {
        case (nil, nil):
            break
        case (let latitude?, let longitude?) where abs(latitude) <= 90 && abs(longitude) <= 180:
            position = GeoPoint(latitude: latitude, longitude: longitude)
        default:
            throw .malformed("a receiver announcement without a position on the globe")
        }
        return ReceiverAnnouncement(
            position: position, version: try text(fields.version, "version"),
            sources: try text(fields.sources, "sources"))
    }
}
