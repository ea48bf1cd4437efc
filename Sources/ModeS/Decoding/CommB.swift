import Foundation

/// Identifies and decodes the Comm-B register (BDS) carried in the 56-bit MB field of DF20/21.
///
/// The reply does not say which register it carries: the ground station asked for one, and
/// only the interrogator knows which. A passive receiver must infer it from the content. Only
/// registers that can be told apart safely are reported:
/// - 1,0 and 2,0 start with their own number in the first byte;
/// - 4,0, 5,0 and 6,0 have no header, so each candidate must pass strict consistency checks
///   (a status bit of 0 means its value bits are 0, reserved bits are 0, values are physically
///   plausible), and a reply that passes more than one of them is left unidentified;
/// - 1,7 (the list of supported registers) is a candidate too, because a sparse 4,0 can look
///   exactly like it; it is reported only when nothing else fits.
public enum CommB {
    /// Fills `message` with the register identified in `mb` (the 56-bit MB field), if any.
    public static func decode(mb: UInt64, into message: inout Message) {
        guard mb != 0 else { return }
        let field = MBField(raw: mb)
        if field[1, 8] == 0x20, let callsign = ExtendedSquitter.callsign(field[9, 56]),
           !callsign.isEmpty {
            message.bds = "2,0"
            message.callsign = callsign
            return
        }
        if field[1, 8] == 0x10, field[10, 14] == 0 {
            message.bds = "1,0"
            return
        }
        var candidates: [(String, (inout Message) -> Void)] = []
        if isCapabilityReport(field) { candidates.append(("1,7", { _ in })) }
        if let apply = selectedVerticalIntention(field) { candidates.append(("4,0", apply)) }
        if let apply = trackAndTurn(field) { candidates.append(("5,0", apply)) }
        if let apply = headingAndSpeed(field, altitudeFt: message.altitudeBaroFt) {
            candidates.append(("6,0", apply))
        }
        guard candidates.count == 1 else { return }
        message.bds = candidates[0].0
        candidates[0].1(&message)
    }

    /// The MB field with 1-based bit access as in the register tables.
    struct MBField {
        let raw: UInt64
        subscript(first: Int, last: Int) -> UInt64 {
            (raw >> UInt64(56 - last)) & ((1 << UInt64(last - first + 1)) - 1)
        }
        /// A status bit and its value bits: the value when the status is set, 0 when not, and
        /// nil when the status is clear but the value bits are not (an inconsistent register).
        func statusValue(_ status: Int, _ first: Int, _ last: Int) -> UInt64?? {
            let value = self[first, last]
            if self[status, status] == 0 { return value == 0 ? .some(nil) : nil }
            return .some(value)
        }
    }

    /// A value with a sign bit at `signBit` followed by `first...last`, as a signed integer.
    private static func signed(_ field: MBField, _ signBit: Int, _ first: Int, _ last: Int) -> Int {
        let magnitude = Int(field[first, last])
        return field[signBit, signBit] == 1 ? magnitude - (1 << (last - first + 1)) : magnitude
    }

    /// BDS 1,7 "common usage GICB capability report": one flag per register in the first
    /// 24 bits, the rest reserved. Every such report lists 2,0 (the aircraft identification
    /// register any Comm-B transponder must support).
    private static func isCapabilityReport(_ f: MBField) -> Bool {
        f[25, 56] == 0 && f[7, 7] == 1
    }

    /// BDS 4,0 "selected vertical intention".
    private static func selectedVerticalIntention(_ f: MBField) -> ((inout Message) -> Void)? {
        guard f[40, 47] == 0, f[52, 53] == 0,
              case let .some(mcp) = f.statusValue(1, 2, 13),
              case let .some(fms) = f.statusValue(14, 15, 26),
              case let .some(baro) = f.statusValue(27, 28, 39),
              case .some = f.statusValue(48, 49, 51),
              case .some = f.statusValue(54, 55, 56) else { return nil }
        guard mcp != nil || fms != nil || baro != nil else { return nil }
        let mcpFt = mcp.map { Int($0) * 16 }, fmsFt = fms.map { Int($0) * 16 }
        let hpa = baro.map { 800 + Double($0) * 0.1 }
        // Selected altitudes are within the flight envelope; settings within real pressures.
        if let mcpFt, !(1...50_000).contains(mcpFt) { return nil }
        if let fmsFt, !(1...50_000).contains(fmsFt) { return nil }
        if let hpa, !(850...1100).contains(hpa) { return nil }
        return { message in
            if let mcpFt {
                message.selectedAltitudeFt = mcpFt
                message.selectedAltitudeSource = "mcp"
            } else if let fmsFt {
                message.selectedAltitudeFt = fmsFt
                message.selectedAltitudeSource = "fms"
            }
            if let hpa { message.baroSettingHpa = (hpa * 10).rounded() / 10 }
        }
    }

    /// BDS 5,0 "track and turn report".
    private static func trackAndTurn(_ f: MBField) -> ((inout Message) -> Void)? {
        guard case let .some(rollRaw) = f.statusValue(1, 2, 11),
              case let .some(trackRaw) = f.statusValue(12, 13, 23),
              case let .some(groundSpeedRaw) = f.statusValue(24, 25, 34),
              case let .some(rateRaw) = f.statusValue(35, 36, 45),
              case let .some(airspeedRaw) = f.statusValue(46, 47, 56) else { return nil }
        let roll = rollRaw.map { _ in Double(signed(f, 2, 3, 11)) * 45 / 256 }
        let track = trackRaw.map { _ -> Double in
            let degrees = Double(signed(f, 13, 14, 23)) * 90 / 512
            return degrees < 0 ? degrees + 360 : degrees
        }
        let groundSpeed = groundSpeedRaw.map { Int($0) * 2 }
        let rate = rateRaw.map { _ in Double(signed(f, 36, 37, 45)) * 8 / 256 }
        let airspeed = airspeedRaw.map { Int($0) * 2 }
        // An airliner banks at most about 35°; ground and air speed differ by the wind only.
        guard groundSpeed != nil || airspeed != nil, roll != nil || track != nil else { return nil }
        if let roll, abs(roll) > 50 { return nil }
        if let groundSpeed, !(1...600).contains(groundSpeed) { return nil }
        if let airspeed, !(1...600).contains(airspeed) { return nil }
        if let groundSpeed, let airspeed, abs(groundSpeed - airspeed) > 200 { return nil }
        return { message in
            message.rollDeg = roll
            message.trackDeg = track
            message.groundSpeedKt = groundSpeed.map(Double.init)
            message.trackRateDegPerS = rate
            message.trueAirspeedKt = airspeed
        }
    }

    /// BDS 6,0 "heading and speed report".
    private static func headingAndSpeed(_ f: MBField, altitudeFt: Int?) -> ((inout Message) -> Void)? {
        guard case let .some(headingRaw) = f.statusValue(1, 2, 12),
              case let .some(iasRaw) = f.statusValue(13, 14, 23),
              case let .some(machRaw) = f.statusValue(24, 25, 34),
              case let .some(baroRateRaw) = f.statusValue(35, 36, 45),
              case let .some(inertialRaw) = f.statusValue(46, 47, 56) else { return nil }
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
           abs(Double(ias) - calibratedAirspeed(mach: mach, altitudeFt: Double(altitudeFt))) > 50 {
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
        let delta = altitudeFt <= 36_089
            ? pow(1 - 6.875_59e-6 * altitudeFt, 5.2559)
            : 0.223_36 * exp(-4.806_34e-5 * (altitudeFt - 36_089))
        let impactRatio = delta * (pow(1 + 0.2 * mach * mach, 3.5) - 1)
        let seaLevelSoundSpeedKt = 661.47
        return seaLevelSoundSpeedKt * (5 * (pow(impactRatio + 1, 2.0 / 7.0) - 1)).squareRoot()
    }
}
