import Foundation
import TestSupport
import Testing

@testable import SkyProjection

/// The World Magnetic Model 2025: NOAA's published test values, the behaviour at the poles
/// and outside the model's years, and the date conversion.
@Suite struct MagneticModelTests {
    let model = MagneticModel.wmm2025

    /// A row of the WMM2025 report's table of test values: decimal year, height above the
    /// WGS-84 ellipsoid (km), latitude, longitude, then declination and inclination (degrees,
    /// published to 0.01) and total intensity (nT, published to 0.1).
    struct TestValue: Sendable, CustomTestStringConvertible {
        var year: Double
        var heightKm: Double
        var latitude: Double
        var longitude: Double
        var declination: Double
        var inclination: Double
        var total: Double

        /// A row in the table's order.
        init(
            _ year: Double, _ heightKm: Double, _ latitude: Double, _ longitude: Double, _ declination: Double,
            _ inclination: Double, _ total: Double
        ) {
            (self.year, self.heightKm, self.latitude, self.longitude) = (year, heightKm, latitude, longitude)
            (self.declination, self.inclination, self.total) = (declination, inclination, total)
        }

        var testDescription: String { "\(year) \(heightKm) km \(latitude), \(longitude)" }
    }

    /// Rows of the table in the WMM2025 technical report (NOAA NCEI, "WMM2025 test values").
    static let published: [TestValue] = [
        // year, km above the ellipsoid, latitude, longitude, declination, inclination, total
        TestValue(2025, 0, 80, 0, 1.28, 83.21, 55178.5),
        TestValue(2025, 0, 0, 120, -0.16, -14.93, 41064.3),
        TestValue(2025, 0, -80, 240, 68.78, -72.00, 54698.2),
        TestValue(2025, 100, 80, 0, 0.85, 83.26, 52964.9),
        TestValue(2027.5, 0, 80, 0, 2.59, 83.24, 55253.9),
        TestValue(2027.5, 100, 0, 120, -0.23, -14.81, 39007.4)
    ]

    @Test(arguments: published) func agreesWithThePublishedTestValues(_ row: TestValue) {
        let field = model.field(
            latitude: row.latitude, longitude: row.longitude, altitudeMetres: row.heightKm * 1000,
            decimalYear: row.year)
        // Half the last published digit, and a hair for the printing.
        #expect(abs(field.declinationDeg - row.declination) <= 0.0051, "declination \(field.declinationDeg)")
        #expect(abs(field.inclinationDeg - row.inclination) <= 0.0051, "inclination \(field.inclinationDeg)")
        #expect(abs(field.total - row.total) <= 0.051, "total intensity \(field.total)")
    }

    @Test func declinationIsTheFieldsAngleFromTrueNorth() {
        let field = model.field(latitude: 52.3, longitude: 4.75, altitudeMetres: 15, decimalYear: 2026)
        #expect(field.declinationDeg == atan2(field.east, field.north) * 180 / .pi)
        #expect(
            model.declination(latitude: 52.3, longitude: 4.75, altitudeMetres: 15, decimalYear: 2026)
                == field.declinationDeg)
        // The Netherlands, 2026: a little east of true north.
        #expect(field.declinationDeg > 1 && field.declinationDeg < 4)
    }

    /// At a pole north is every way; the model gives the limit along the longitude asked
    /// for: finite, and where the nearby points lead.
    @Test(arguments: [90.0, -90.0]) func atAPoleTheAnswerIsFiniteAndTheLimitAlongTheMeridian(_ pole: Double) {
        for longitude in stride(from: -180.0, through: 180, by: 15) {
            for height in [-500.0, 0, 12_000, 400_000] {
                let at = model.declination(
                    latitude: pole, longitude: longitude, altitudeMetres: height, decimalYear: 2027)
                #expect(at.isFinite && abs(at) <= 180)
                let near = model.declination(
                    latitude: pole - 1e-7 * (pole > 0 ? 1 : -1), longitude: longitude, altitudeMetres: height,
                    decimalYear: 2027)
                #expect(Self.angularDifference(at, near) < 1e-3, "\(pole), \(longitude): \(at) and \(near)")
            }
        }
        // Latitudes past the pole are read as the pole.
        let beyond = model.declination(latitude: pole * 1.01, longitude: 30, altitudeMetres: 0, decimalYear: 2026)
        #expect(beyond == model.declination(latitude: pole, longitude: 30, altitudeMetres: 0, decimalYear: 2026))
    }

    @Test func outsideItsYearsItStillAnswersByCarryingTheChangeOn() {
        #expect(model.isValid(decimalYear: 2025) && model.isValid(decimalYear: 2029.999))
        #expect(!model.isValid(decimalYear: 2030) && !model.isValid(decimalYear: 2024.99))
        let years = [2020.0, 2025, 2030, 2035]
        let answers = years.map { model.declination(latitude: 47, longitude: -122, altitudeMetres: 0, decimalYear: $0) }
        #expect(answers.allSatisfy { $0.isFinite })
        // Linear coefficients in time: the field's components move in straight lines.
        let fields = years.map { model.field(latitude: 47, longitude: -122, altitudeMetres: 0, decimalYear: $0) }
        #expect(abs((fields[3].east - fields[2].east) - (fields[1].east - fields[0].east)) < 1e-6)
        #expect(abs((fields[3].north - fields[2].north) - (fields[2].north - fields[1].north)) < 1e-6)
    }

    @Test func decimalYearsCountTheDaysOfEachYear() {
        #expect(DecimalYear.from(secondsSince1970: 0) == 1970)
        #expect(DecimalYear.from(secondsSince1970: 1_735_689_600) == 2025)  // 2025-01-01T00:00Z
        // 2024 is a leap year: noon on 2 July is 183.5 of its 366 days in.
        #expect(abs(DecimalYear.from(secondsSince1970: 1_719_921_600) - (2024 + 183.5 / 366)) < 1e-12)
        // 2100 is not a leap year, 2000 is.
        #expect(abs(DecimalYear.from(secondsSince1970: 4_107_542_400) - (2100 + 59.0 / 365)) < 1e-12)  // 2100-03-01
        #expect(abs(DecimalYear.from(secondsSince1970: 951_782_400) - (2000 + 59.0 / 366)) < 1e-12)  // 2000-02-29
        #expect(abs(DecimalYear.from(secondsSince1970: -43_200) - (1969 + 364.5 / 365)) < 1e-12)
        #expect(DecimalYear.from(secondsSince1970: 1e300).isFinite)
    }

    /// NOAA's own WMM2025 software (wmm-calculator, `scripts/wmm_declination.py`) at 2,000
    /// random places, heights and dates of the model's years: the worst difference is printed
    /// and must be at most 0.05°.
    @Test(.requires(.venvModule("wmm"))) func agreesWithNOAAsImplementationAtRandomPoints() throws {
        var random = SplitMix(state: 2025)
        var points: [[String: Double]] = []
        for _ in 0..<2000 {
            points.append([
                "lat": Double.random(in: -90...90, using: &random),
                "lon": Double.random(in: -180..<180, using: &random),
                "alt_km": Double.random(in: -1...100, using: &random),
                "year": Double.random(in: 2025..<2030, using: &random)
            ])
        }
        let reference = try Self.noaaDeclinations(points)
        try #require(reference.count == points.count)
        var worst = (difference: 0.0, index: 0)
        for (index, point) in points.enumerated() {
            let ours = model.declination(
                latitude: point["lat"]!, longitude: point["lon"]!, altitudeMetres: point["alt_km"]! * 1000,
                decimalYear: point["year"]!)
            let difference = Self.angularDifference(ours, reference[index])
            if difference > worst.difference { worst = (difference, index) }
        }
        print(
            "WMM2025 against NOAA's wmm-calculator: \(points.count) points, worst declination difference "
                + String(format: "%.2e°", worst.difference) + " at \(points[worst.index])")
        #expect(worst.difference <= 0.05)
    }

    /// The declinations of `points` by NOAA's software in the project's Python.
    static func noaaDeclinations(_ points: [[String: Double]]) throws -> [Double] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let run = Process()
        run.executableURL = root.appendingPathComponent(".venv/bin/python")
        run.arguments = [root.appendingPathComponent("scripts/wmm_declination.py").path]
        let input = Pipe()
        let output = Pipe()
        run.standardInput = input
        run.standardOutput = output
        run.standardError = FileHandle.nullDevice
        try run.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: points))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        run.waitUntilExit()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [Double])
    }

    /// How far apart two directions are, degrees in [0, 180].
    static func angularDifference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }
}
