/// The furthest position heard in one bearing sector and altitude band during one hour.
package struct CoverageCell: Sendable, Equatable {
    /// Hours since 1970.
    package var hour: Int
    /// Bearing sector from the receiver, 0 ..< `RangeCoverage.sectors`.
    package var sector: Int
    /// Altitude band, 0 ..< `RangeCoverage.bandFloorsFt.count`.
    package var band: Int
    /// Distance from the receiver, kilometres.
    package var rangeKm: Double
    /// The position, degrees.
    package var latitude: Double
    /// The position, degrees.
    package var longitude: Double
    /// Its altitude, feet.
    package var altitudeFt: Int

    /// A cell from its parts.
    package init(
        hour: Int, sector: Int, band: Int, rangeKm: Double, latitude: Double, longitude: Double, altitudeFt: Int
    ) {
        self.hour = hour
        self.sector = sector
        self.band = band
        self.rangeKm = rangeKm
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeFt = altitudeFt
    }
}
