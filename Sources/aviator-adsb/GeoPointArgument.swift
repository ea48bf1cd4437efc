import ArgumentParser
import ModeS

extension GeoPoint: ExpressibleByArgument {
    /// Parses "LAT,LON" in decimal degrees (an optional third ",ALT" is accepted and ignored
    /// here), e.g. `52.0,4.4`.
    public init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 || parts.count == 3, let lat = parts[0], let lon = parts[1],
              (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        self.init(latitude: lat, longitude: lon)
    }
}
