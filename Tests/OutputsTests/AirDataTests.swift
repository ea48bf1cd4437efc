import Testing
import Tracking

@testable import Outputs

/// Wind and temperatures derived for aircraft.json.
@Suite struct AirDataTests {
    static func plane(at time: Double) -> AircraftState {
        AircraftState(icao: 0x4840D6, lastSeen: time, source: .adsb)
    }

    /// Sets `field` to have been heard from ADS-B at `time`.
    static func stamp(_ plane: inout AircraftState, _ fields: [FieldSources.Field], at time: Double) {
        for field in fields { _ = plane.fieldSources.accept(field, from: .adsbICAO, at: time, timeout: 15) }
    }

    @Test func temperaturesFollowMachAndTrueAirspeed() throws {
        var plane = Self.plane(at: 100)
        // Mach 0.78 in the standard atmosphere above 36,089 ft (216.65 K) is 447 kt true.
        plane.mach = 0.78
        plane.trueAirspeedKt = 447
        Self.stamp(&plane, [.mach, .trueAirspeed], at: 99)
        let air = try #require(AirData(plane, now: 100))
        #expect(abs(try #require(air.staticTemperatureC) - (216.65 - 273.15)) < 1)
        // The probe reads the air brought to rest: 1 + 0.2 M² warmer in kelvin.
        let heating: Double = 1 + 0.2 * 0.78 * 0.78
        let total: Double = 216.65 * heating - 273.15
        #expect(abs(try #require(air.totalTemperatureC) - total) < 1)
        #expect(air.windSpeedKt == nil)
    }

    @Test func nothingFromOldSlowOrMismatchedInputs() {
        var plane = Self.plane(at: 100)
        plane.mach = 0.78
        plane.trueAirspeedKt = 449
        Self.stamp(&plane, [.mach], at: 90)
        Self.stamp(&plane, [.trueAirspeed], at: 99)
        #expect(AirData(plane, now: 100) == nil, "10 s between the two")
        Self.stamp(&plane, [.mach], at: 99)
        #expect(AirData(plane, now: 100 + AirData.maximumAge + 1) == nil, "too old")
        plane.mach = 0.3
        #expect(AirData(plane, now: 100) == nil, "below Mach 0.395")
    }

    @Test func windIsGroundMinusAirVelocity() throws {
        var plane = Self.plane(at: 100)
        plane.trueAirspeedKt = 400
        plane.trueHeadingDeg = 90
        plane.groundSpeedKt = 350
        plane.trackDeg = 90
        Self.stamp(&plane, [.trueAirspeed, .trueHeading, .groundSpeed, .track], at: 100)
        let air = try #require(AirData(plane, now: 100))
        // 50 kt slower over the ground flying east: a headwind from the east.
        #expect(abs(try #require(air.windSpeedKt) - 50) < 1e-6)
        #expect(abs(try #require(air.windDirectionDeg) - 90) < 1e-6)
        plane.trueHeadingDeg = nil
        #expect(AirData(plane, now: 100) == nil, "no wind from a magnetic heading")
    }
}
