import FeedProtocol
import ModeS
import Testing
import Tracking

@testable import SkyProjection

/// Reference figures computed independently with pymap3d 3.2.0 (`geodetic2aer`, WGS-84
/// ellipsoid) for azimuth, elevation and slant range, and pyproj 3.7.2 / PROJ 9.5.1
/// (`Geod(ellps="WGS84").inv`) for the distance along the surface; bearing, x and y follow
/// the radar definitions from those figures. The test does not run Python: the figures are
/// written here.
@Suite struct SkyProjectionTests {
    struct Reference {
        var name: String
        var observer: Observer
        var latitude: Double, longitude: Double, heightMetres: Double
        var headingDeg: Double, rangeKm: Double, trackDeg: Double?
        var azimuthDeg: Double, elevationDeg: Double, slantKm: Double, groundKm: Double
        var bearingDeg: Double, x: Double, y: Double, rotationDeg: Double?
    }

    static let references: [Reference] = [
        Reference(
            name: "overhead", observer: Observer(latitude: 52.0, longitude: 4.4, altitudeMetres: 0),
            latitude: 52.0, longitude: 4.4, heightMetres: 10_000, headingDeg: 0, rangeKm: 50, trackDeg: nil,
            azimuthDeg: 0, elevationDeg: 90, slantKm: 10, groundKm: 0,
            bearingDeg: 0, x: 0, y: 0, rotationDeg: nil),
        Reference(
            name: "horizon", observer: Observer(latitude: 51.5, longitude: -0.1, altitudeMetres: 20),
            latitude: 51.5, longitude: 5.3, heightMetres: 11_000, headingDeg: 0, rangeKm: 500, trackDeg: nil,
            azimuthDeg: 87.886351799, elevationDeg: -0.004716748, slantKm: 375.323682075, groundKm: 374.893764825,
            bearingDeg: 87.886351799, x: 0.749277402, y: 0.027653479, rotationDeg: nil),
        Reference(
            name: "antimeridian", observer: Observer(latitude: 65.0, longitude: 179.9, altitudeMetres: 5),
            latitude: 65.2, longitude: -179.8, heightMetres: 9_500, headingDeg: 0, rangeKm: 100, trackDeg: 270,
            azimuthDeg: 32.169474337, elevationDeg: 19.661815447, slantKm: 28.057544342, groundKm: 26.382503191,
            bearingDeg: 32.169474337, x: 0.140467141, y: 0.223321808, rotationDeg: 270),
        Reference(
            name: "high latitude", observer: Observer(latitude: 78.22, longitude: 15.65, altitudeMetres: 30),
            latitude: 79.0, longitude: 20.0, heightMetres: 9_000, headingDeg: 0, rangeKm: 200, trackDeg: 45,
            azimuthDeg: 45.650833650, elevationDeg: 3.379101086, slantKm: 129.912460294, groundKm: 129.513265987,
            bearingDeg: 45.650833650, x: 0.463070247, y: 0.452667757, rotationDeg: 45),
        Reference(
            name: "below the horizon", observer: Observer(latitude: 40.0, longitude: -74.0, altitudeMetres: 10),
            latitude: 41.5, longitude: -72.0, heightMetres: 1_000, headingDeg: 0, rangeKm: 300, trackDeg: nil,
            azimuthDeg: 44.748953167, elevationDeg: -0.826929847, slantKm: 237.218101251, groundKm: 237.210931440,
            bearingDeg: 44.748953167, x: 0.556656369, y: 0.561555952, rotationDeg: nil),
        Reference(
            name: "southern hemisphere", observer: Observer(latitude: -33.9, longitude: 151.2, altitudeMetres: 40),
            latitude: -34.1, longitude: 151.0, heightMetres: 3_000, headingDeg: 0, rangeKm: 50, trackDeg: 10,
            azimuthDeg: 219.734224533, elevationDeg: 5.722457310, slantKm: 29.029402082, groundKm: 28.871232252,
            bearingDeg: 219.734224533, x: -0.369105591, y: -0.444049866, rotationDeg: 10),
        Reference(
            name: "heading 90", observer: Observer(latitude: 52.0, longitude: 4.4, altitudeMetres: 0),
            latitude: 52.2, longitude: 4.7, heightMetres: 6_000, headingDeg: 90, rangeKm: 50, trackDeg: 200,
            azimuthDeg: 42.612506355, elevationDeg: 11.061154641, slantKm: 30.898237914, groundKm: 30.295874810,
            bearingDeg: 312.612506355, x: -0.445924571, y: 0.410228338, rotationDeg: 110),
        Reference(
            name: "heading 300", observer: Observer(latitude: 52.0, longitude: 4.4, altitudeMetres: 0),
            latitude: 52.2, longitude: 4.7, heightMetres: 6_000, headingDeg: 300, rangeKm: 50, trackDeg: 200,
            azimuthDeg: 42.612506355, elevationDeg: 11.061154641, slantKm: 30.898237914, groundKm: 30.295874810,
            bearingDeg: 102.612506355, x: 0.591296176, y: -0.132305876, rotationDeg: 260)
    ]

    /// Angles agree to a millionth of a degree, distances to a centimetre.
    static let angleTolerance = 1e-6
    static let distanceToleranceKm = 1e-5

    @Test(arguments: references.map(\.name))
    func matchesIndependentGeodesy(_ name: String) throws {
        let ref = try #require(Self.references.first { $0.name == name })
        let sky = SkyProjection(observer: ref.observer)
            .place(latitude: ref.latitude, longitude: ref.longitude, heightMetres: ref.heightMetres)
        #expect(abs(sky.azimuthDeg - ref.azimuthDeg) < Self.angleTolerance, "azimuth \(sky.azimuthDeg)")
        let elevation = try #require(sky.elevationDeg)
        #expect(abs(elevation - ref.elevationDeg) < Self.angleTolerance, "elevation \(elevation)")
        let slant = try #require(sky.slantKm)
        #expect(abs(slant - ref.slantKm) < Self.distanceToleranceKm, "slant \(slant)")
        #expect(abs(sky.groundKm - ref.groundKm) < Self.distanceToleranceKm, "ground \(sky.groundKm)")

        let view = RadarView(headingDeg: ref.headingDeg, rangeKm: ref.rangeKm)
        let radar = view.place(sky)
        #expect(abs(radar.bearingDeg - ref.bearingDeg) < Self.angleTolerance, "bearing \(radar.bearingDeg)")
        #expect(abs(radar.x - ref.x) < 1e-7, "x \(radar.x)")
        #expect(abs(radar.y - ref.y) < 1e-7, "y \(radar.y)")
        let rotation = view.rotation(trackDeg: ref.trackDeg)
        #expect(rotation == ref.rotationDeg)
    }

    @Test func belowTheHorizonIsNegativeAndOverheadIsNinety() {
        let projection = SkyProjection(observer: Observer(latitude: 40, longitude: -74, altitudeMetres: 10))
        let low = projection.place(latitude: 41.5, longitude: -72, heightMetres: 1_000)
        #expect((low.elevationDeg ?? 0) < 0)
        let overhead = projection.place(latitude: 40, longitude: -74, heightMetres: 3_010)
        #expect(abs((overhead.elevationDeg ?? 0) - 90) < 1e-9)
        #expect(abs((overhead.slantKm ?? 0) - 3) < 1e-9)
    }

    @Test func unknownHeightKeepsDirectionButNotElevation() {
        let projection = SkyProjection(observer: Observer(latitude: 52, longitude: 4.4))
        let sky = projection.place(latitude: 52.2, longitude: 4.7, heightMetres: nil)
        #expect(sky.elevationDeg == nil)
        #expect(sky.slantKm == nil)
        #expect(abs(sky.groundKm - 30.295874810) < 1e-5)
        // The azimuth of the ground point differs from the airborne one by far less than 0.01°.
        #expect(abs(sky.azimuthDeg - 42.612506355) < 0.01)
    }

    @Test func flatLatitudeLongitudeDifferencesWouldBeFarOff() {
        // The projection must not be a flat lat/lon approximation: at 78° N one degree of
        // longitude is about 23 km, not 111 km.
        let projection = SkyProjection(observer: Observer(latitude: 78, longitude: 15))
        let sky = projection.place(latitude: 78, longitude: 16, heightMetres: 0)
        #expect(sky.groundKm > 22 && sky.groundKm < 24)
    }

    @Test func prefersGeometricHeight() throws {
        var state = AircraftState(icao: 0x4840D6, lastSeen: 0, source: .adsb)
        state.position = GeoPoint(latitude: 52.0, longitude: 4.4)
        state.altitudeBaroFt = 30_000
        #expect(AircraftHeight.metres(of: state) == 9_144)
        state.altitudeGeoFt = 31_000
        #expect(AircraftHeight.metres(of: state) == 31_000 * 0.3048)
        let sky = try #require(SkyProjection(observer: Observer(latitude: 52, longitude: 4.4)).place(state))
        #expect(abs((sky.slantKm ?? 0) - 31_000 * 0.3048 / 1000) < 1e-6)
    }

    @Test func normalizesDegrees() {
        #expect(Geodesy.normalizedDegrees(-90) == 270)
        #expect(Geodesy.normalizedDegrees(360) == 0)
        #expect(Geodesy.normalizedDegrees(725) == 5)
        #expect(Geodesy.normalizedDegrees(-1e-20) < 360)
    }
}
