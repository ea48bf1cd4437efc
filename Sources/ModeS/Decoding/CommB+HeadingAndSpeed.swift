import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// BDS 6,0 "heading and speed report".
///
/// | MB bits | field |
/// | --- | --- |
/// | 1 | status of 2–12 |
/// | 2–12 | magnetic heading: sign bit and 10 bits, 90/512 degrees per unit |
/// | 13 | status of 14–23 |
/// | 14–23 | indicated airspeed, 1 kt per unit |
/// | 24 | status of 25–34 |
/// | 25–34 | Mach number, 2.048/512 per unit |
/// | 35 | status of 36–45 |
/// | 36–45 | barometric altitude rate: sign bit and 9 bits, 32 ft/min per unit |
/// | 46 | status of 47–56 |
/// | 47–56 | inertial vertical velocity: sign bit and 9 bits, 32 ft/min per unit |
extension CommB {
    /// BDS 6,0 "heading and speed report".
    static func headingAndSpeed(_ f: MBField, altitudeFt: Int?) -> ((inout Message) -> Void)? {
        guard case .some(let headingRaw) = f.statusValue(1, 2, 12),
            case .some(let iasRaw) = f.statusValue(13, 14, 23),
            case .some(let machRaw) = f.statusValue(24, 25, 34),
            case .some(let baroRateRaw) = f.statusValue(35, 36, 45),
            case .some(let inertialRaw) = f.statusValue(46, 47, 56)
        else { return nil }
        let heading = headingRaw.map { _ -> Double in
            let degrees = Double(signed(f, 2, 3, 12)) * 90 / 512
            return degrees < 0 ? degrees + 360 : degrees
        }
        let ias = iasRaw.map { Int($0) }
        let mach = machRaw.map { Double($0) * 2.048 / 512 }
        let baroRate = baroRateRaw.map { _ in signed(f, 36, 37, 45) * 32 }
        let inertialRate = inertialRaw.map { _ in signed(f, 47, 48, 56) * 32 }
        guard ias != nil || mach != nil, heading != nil else { return nil }
        if let ias, !(1...500).contains(ias) { return nil }
        if let mach, !(0.01...1.0).contains(mach) { return nil }
        if let baroRate, abs(baroRate) > 6000 { return nil }
        if let inertialRate, abs(inertialRate) > 6000 { return nil }
        // With the altitude of a DF20 reply, Mach and IAS must describe the same airspeed.
        if let ias, let mach, let altitudeFt,
            abs(Double(ias) - calibratedAirspeed(mach: mach, altitudeFt: Double(altitudeFt))) > 50
        {
            return nil
        }
        return { message in
            message.magneticHeadingDeg = heading
            message.indicatedAirspeedKt = ias
            message.mach = mach
            message.baroVerticalRateFpm = baroRate
            message.inertialVerticalRateFpm = inertialRate
        }
    }

    /// Calibrated airspeed (knots) of an aircraft flying at `mach` at a pressure altitude,
    /// from the International Standard Atmosphere: used only as a plausibility check.
    static func calibratedAirspeed(mach: Double, altitudeFt: Double) -> Double {
        // Pressure relative to sea level: troposphere lapse law up to 36,089 ft, then
        // isothermal exponential decay in the lower stratosphere.
        let delta =
            altitudeFt <= 36_089
            ? pow(1 - 6.875_59e-6 * altitudeFt, 5.2559)
            : 0.223_36 * exp(-4.806_34e-5 * (altitudeFt - 36_089))
        let impactRatio = delta * (pow(1 + 0.2 * mach * mach, 3.5) - 1)
        let seaLevelSoundSpeedKt = 661.47
        return seaLevelSoundSpeedKt * (5 * (pow(impactRatio + 1, 2.0 / 7.0) - 1)).squareRoot()
    }
}
