import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The receiver's coverage: for each bearing sector and altitude band, the furthest position
/// heard. Sectors and bands are fixed here, so stored cells from any run line up.
package enum RangeCoverage {
    /// Bearing sectors around the receiver, each `360 / sectors` degrees wide (5°).
    package static let sectors = 72
    /// The lowest altitude of each band, feet: below 5,000, to 10,000, to 20,000, to 30,000,
    /// and above.
    package static let bandFloorsFt = [Int.min, 5000, 10000, 20000, 30000]

    /// The sector of `bearing` (degrees from true north).
    package static func sector(bearing: Double) -> Int {
        guard bearing.isFinite else { return 0 }
        let wrapped = bearing.truncatingRemainder(dividingBy: 360)
        let positive = wrapped < 0 ? wrapped + 360 : wrapped
        return min(sectors - 1, Int(positive / (360 / Double(sectors))))
    }

    /// The band of `altitudeFt`.
    package static func band(altitudeFt: Int) -> Int {
        bandFloorsFt.lastIndex { altitudeFt >= $0 } ?? 0
    }

    /// Initial great-circle bearing from `a` to `b`, degrees in [0, 360).
    package static func bearing(from a: GeoPoint, to b: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let lat1 = a.latitude * radians
        let lat2 = b.latitude * radians
        let dLon = (b.longitude - a.longitude) * radians
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) / radians
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The cell `position` at `altitudeFt` fills at `time`, seen from `receiver`.
    package static func cell(
        receiver: GeoPoint, position: GeoPoint, altitudeFt: Int, time: Double
    ) -> CoverageCell {
        CoverageCell(
            hour: Int((time / 3600).rounded(.down)),
            sector: sector(bearing: bearing(from: receiver, to: position)), band: band(altitudeFt: altitudeFt),
            rangeKm: CPR.distanceKm(receiver, position), latitude: position.latitude,
            longitude: position.longitude, altitudeFt: altitudeFt)
    }

    /// The outline of `cells`: in each sector the furthest cell of any band, in sector order
    /// (so a polygon through them goes round the receiver once).
    package static func outline(_ cells: [CoverageCell]) -> [CoverageCell] {
        var best: [Int: CoverageCell] = [:]
        for cell in cells where cell.rangeKm > (best[cell.sector]?.rangeKm ?? -1) { best[cell.sector] = cell }
        return best.keys.sorted().compactMap { best[$0] }
    }
}
