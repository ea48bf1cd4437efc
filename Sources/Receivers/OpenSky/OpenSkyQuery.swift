import FoundationEssentials
import ModeS
import Support

/// The bounding box asked of OpenSky: a box of configurable size around the receiver's
/// position rounded to 0.1°.
///
/// Rounding happens here, when the query is made, so the exact position never reaches the
/// client, the URL or a log line: 0.1° is about 11 km, enough to place a radar and not
/// enough to place a house. The box is clamped to the valid ranges of latitude and
/// longitude (it does not wrap across the antimeridian: OpenSky's boxes cannot).
package struct OpenSkyQuery: Sendable, Equatable {
    /// The rounded centre of the box.
    package let centre: GeoPoint
    /// Half the height of the box, degrees of latitude.
    package let latitudeHalfSpan: Double
    /// Half the width of the box, degrees of longitude.
    package let longitudeHalfSpan: Double

    /// Default half-height of the box, as the original app used.
    package static let defaultLatitudeHalfSpan = 0.25
    /// Default half-width of the box, as the original app used (about the same distance as
    /// the half-height at mid latitudes).
    package static let defaultLongitudeHalfSpan = 0.5

    /// A box around `receiver` (rounded to 0.1° here) of ± the given spans.
    package init(
        receiver: GeoPoint, latitudeHalfSpan: Double = defaultLatitudeHalfSpan,
        longitudeHalfSpan: Double = defaultLongitudeHalfSpan
    ) {
        centre = Self.rounded(receiver)
        self.latitudeHalfSpan = abs(latitudeHalfSpan)
        self.longitudeHalfSpan = abs(longitudeHalfSpan)
    }

    /// `point` rounded to the nearest 0.1° in both coordinates.
    package static func rounded(_ point: GeoPoint) -> GeoPoint {
        func round(_ degrees: Double) -> Double {
            let value = (degrees * 10).rounded() / 10
            return value == 0 ? 0 : value  // no "-0.0" in a URL
        }
        return GeoPoint(latitude: round(point.latitude), longitude: round(point.longitude))
    }

    /// Southern edge.
    package var latitudeMin: Double { max(-90, centre.latitude - latitudeHalfSpan) }
    /// Northern edge.
    package var latitudeMax: Double { min(90, centre.latitude + latitudeHalfSpan) }
    /// Western edge.
    package var longitudeMin: Double { max(-180, centre.longitude - longitudeHalfSpan) }
    /// Eastern edge.
    package var longitudeMax: Double { min(180, centre.longitude + longitudeHalfSpan) }

    /// The query string, `lamin=…&lomin=…&lamax=…&lomax=…`.
    package var queryString: String {
        [("lamin", latitudeMin), ("lomin", longitudeMin), ("lamax", latitudeMax), ("lomax", longitudeMax)]
            .map { "\($0.0)=\(Self.format($0.1))" }
            .joined(separator: "&")
    }

    /// Degrees with at most four decimals and no trailing zeros: the edges are sums of a
    /// 0.1° centre and a span, and printing the raw double could show binary noise such as
    /// 51.04999999999999.
    static func format(_ degrees: Double) -> String {
        var text = DecimalText.fixed(degrees, places: 4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
