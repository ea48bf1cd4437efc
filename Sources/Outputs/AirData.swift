import FoundationEssentials
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wind and air temperature worked out from what an aircraft reports, for aircraft.json's
/// `wd`, `ws`, `oat` and `tat`.
///
/// - Wind is the difference between the ground velocity (ground speed along the track) and
///   the air velocity (true airspeed along the true heading). It needs a true heading, which
///   aircraft rarely send in the air (their heading is magnetic, and turning it into a true
///   one needs a model of the Earth's magnetic field), so wind is mostly unknown.
/// - The static air temperature follows from Mach number and true airspeed: the speed of
///   sound is TAS / M and grows with the square root of the absolute temperature. Below
///   Mach 0.395 the quantised Mach number (steps of 0.004) makes the result too coarse to
///   be worth showing. The total temperature adds the heating of the air brought to rest
///   on the probe, T·(1 + 0.2·M²) for air.
///
/// All inputs must be recent and from about the same moment (`maximumAge`, `maximumSpread`).
struct AirData: Equatable {
    /// Oldest input, seconds.
    static let maximumAge = 10.0
    /// Largest time between the inputs combined, seconds.
    static let maximumSpread = 5.0
    /// Lowest Mach number a temperature is derived from.
    static let minimumMach = 0.395
    /// The speed of sound in knots at 1 kelvin (661.47 kt at 288.15 K, over √288.15).
    static let soundSpeedPerRootKelvin = 661.47 / 288.15.squareRoot()

    /// Where the wind blows from, degrees from true north.
    var windDirectionDeg: Double?
    /// Wind speed, knots.
    var windSpeedKt: Double?
    /// Static (outside) air temperature, °C.
    var staticTemperatureC: Double?
    /// Total air temperature, °C.
    var totalTemperatureC: Double?

    /// What can be derived for `plane` at `now`, nil when nothing can.
    init?(_ plane: AircraftState, now: Double) {
        func recent(_ fields: FieldSources.Field...) -> Bool {
            let times = fields.compactMap { plane.fieldSources[$0]?.time }
            guard times.count == fields.count, let oldest = times.min(), let newest = times.max() else { return false }
            return now - oldest <= Self.maximumAge && newest - oldest <= Self.maximumSpread
        }
        if let tas = plane.trueAirspeedKt, let mach = plane.mach, mach >= Self.minimumMach, tas > 0,
            recent(.trueAirspeed, .mach)
        {
            let kelvin = pow(Double(tas) / mach / Self.soundSpeedPerRootKelvin, 2)
            staticTemperatureC = kelvin - 273.15
            totalTemperatureC = kelvin * (1 + 0.2 * mach * mach) - 273.15
        }
        if let tas = plane.trueAirspeedKt, let heading = plane.trueHeadingDeg, let gs = plane.groundSpeedKt,
            let track = plane.trackDeg, plane.onGround != true,
            recent(.trueAirspeed, .trueHeading, .groundSpeed, .track)
        {
            let radians = Double.pi / 180
            // East and north components of the wind: ground velocity minus air velocity.
            let east = gs * sin(track * radians) - Double(tas) * sin(heading * radians)
            let north = gs * cos(track * radians) - Double(tas) * cos(heading * radians)
            windSpeedKt = (east * east + north * north).squareRoot()
            // A wind is named by where it blows from: the opposite of its vector.
            var from = atan2(-east, -north) / radians
            if from < 0 { from += 360 }
            windDirectionDeg = from
        }
        if staticTemperatureC == nil && windSpeedKt == nil { return nil }
    }
}
