import Testing

@testable import SkyProjection

@Suite struct IconScaleTests {
    @Test func lowAircraftAreDrawnLarger() {
        #expect(IconScale.scale(heightMetres: 0) == 2)
        #expect(abs(IconScale.scale(heightMetres: 5011.87) - 1.0) < 0.001)
        #expect(IconScale.scale(heightMetres: 12_000) < IconScale.scale(heightMetres: 3_000))
        #expect(IconScale.scale(heightMetres: 1_000_000) == 0.7)
    }
}
