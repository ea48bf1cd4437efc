import ArgumentParser
import ModeS

/// The receiver's position as typed on the command line: `LAT,LON` or `LAT,LON,ALT_M`
/// (height above the WGS-84 ellipsoid in metres).
struct ReceiverArgument: ExpressibleByArgument, Sendable {
    /// Latitude and longitude.
    var point: GeoPoint
    /// Height in metres (0 when not given).
    var altitudeMetres: Double

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 || parts.count == 3, let point = GeoPoint(argument: argument) else { return nil }
        if parts.count == 3 {
            guard let altitude = parts[2], altitude.isFinite else { return nil }
            altitudeMetres = altitude
        } else {
            altitudeMetres = 0
        }
        self.point = point
    }
}
