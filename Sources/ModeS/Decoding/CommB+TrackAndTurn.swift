import FoundationEssentials

/// BDS 5,0 "track and turn report".
///
/// | MB bits | field |
/// | --- | --- |
/// | 1 | status of 2–11 |
/// | 2–11 | roll angle: sign bit and 9 bits, 45/256 degrees per unit |
/// | 12 | status of 13–23 |
/// | 13–23 | true track angle: sign bit and 10 bits, 90/512 degrees per unit |
/// | 24 | status of 25–34 |
/// | 25–34 | ground speed, 2 kt per unit |
/// | 35 | status of 36–45 |
/// | 36–45 | track angle rate: sign bit and 9 bits, 8/256 degrees per second per unit |
/// | 46 | status of 47–56 |
/// | 47–56 | true airspeed, 2 kt per unit |
extension CommB {
    /// BDS 5,0 "track and turn report".
    static func trackAndTurn(_ f: MBField) -> ((inout Message) -> Void)? {
        guard case .some(let rollRaw) = f.statusValue(1, 2, 11),
            case .some(let trackRaw) = f.statusValue(12, 13, 23),
            case .some(let groundSpeedRaw) = f.statusValue(24, 25, 34),
            case .some(let rateRaw) = f.statusValue(35, 36, 45),
            case .some(let airspeedRaw) = f.statusValue(46, 47, 56)
        else { return nil }
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
}
