import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a velocity squitter (DF17/18, type code 19) says, and whether another from the same
/// aircraft could follow it some seconds later (the repair-squitter agreement,
/// `AcceptancePolicy.repairAgreesWithSquitters`).
///
/// An aircraft's velocity changes smoothly: it keeps its subtype (ground speed or airspeed),
/// turns and accelerates within what an aircraft can, and its GNSS height stays within a few
/// tens of feet of its barometric altitude's offset for minutes. A strong velocity squitter
/// with another reply across it, "repaired" in three bits into one that checks, breaks
/// these at once: another subtype, hundreds of feet more between the two heights, a jump of
/// tens of knots. The margins below are wide enough for any real aircraft between two
/// squitters and grow with the time between them.
struct VelocityReport {
    /// 1–2: ground speed (2: supersonic); 3–4: airspeed and heading.
    let subtype: Int
    /// Ground velocity east and north, knots (subtypes 1–2, when available).
    let east: Double?
    let north: Double?
    /// Airspeed, knots, and heading, degrees (subtypes 3–4, when available).
    let airspeed: Int?
    let heading: Double?
    /// Vertical rate, feet per minute, when available.
    let verticalRate: Int?
    /// GNSS height minus barometric altitude, feet, when available.
    let geoMinusBaro: Int?

    /// Knots of ground velocity either way at once, then per second between squitters
    /// (a standard-rate turn at 400 kt turns the velocity by about 21 kt a second).
    static let velocityMargin = 10.0
    static let velocityChangePerSecond = 25.0
    /// Knots and degrees of airspeed and heading, at once and per second.
    static let airspeedMargin = 10.0
    static let airspeedChangePerSecond = 5.0
    static let headingMargin = 10.0
    static let headingChangePerSecond = 6.0
    /// Feet per minute of vertical rate, at once and per second (a level-off takes seconds).
    static let verticalRateMargin = 640.0
    static let verticalRateChangePerSecond = 1_000.0
    /// Feet between the heights' offset, at once and per second (the offset changes with the
    /// air's temperature over thousands of feet of climb: a few feet a second at most).
    static let heightOffsetMargin = 50.0
    static let heightOffsetChangePerSecond = 10.0

    /// The report of the velocity squitter `bits`; nil for any other message.
    init?(_ bits: ModeSBits) {
        let format = bits.downlinkFormat
        guard bits.bitCount == 112, format == 17 || format == 18, bits.field(33, 37) == 19 else { return nil }
        let message = MessageDecoder().decode(Frame(bits: bits, address: UInt32(bits.field(9, 32))))
        guard let subtype = message.velocitySubtype else { return nil }
        self.subtype = subtype
        if let speed = message.groundSpeedKt, let track = message.trackDeg {
            east = speed * sin(track * .pi / 180)
            north = speed * cos(track * .pi / 180)
        } else {
            (east, north) = (nil, nil)
        }
        airspeed = message.airspeedKt
        heading = message.headingDeg
        verticalRate = message.verticalRateFpm
        geoMinusBaro = message.geoMinusBaroFt
    }

    /// Whether this report could come from the aircraft that sent `earlier` `seconds` before.
    /// A field either lacks is not compared.
    func couldFollow(_ earlier: VelocityReport, after seconds: Double) -> Bool {
        let t = max(0, seconds)
        guard subtype == earlier.subtype else { return false }
        if let east, let north, let before = earlier.east, let beforeNorth = earlier.north {
            let change = ((east - before) * (east - before) + (north - beforeNorth) * (north - beforeNorth))
                .squareRoot()
            guard change <= Self.velocityMargin + Self.velocityChangePerSecond * t else { return false }
        }
        if let airspeed, let before = earlier.airspeed {
            guard Double(abs(airspeed - before)) <= Self.airspeedMargin + Self.airspeedChangePerSecond * t else {
                return false
            }
        }
        if let heading, let before = earlier.heading {
            let turn = abs((heading - before + 540).truncatingRemainder(dividingBy: 360) - 180)
            guard turn <= Self.headingMargin + Self.headingChangePerSecond * t else { return false }
        }
        if let verticalRate, let before = earlier.verticalRate {
            guard Double(abs(verticalRate - before)) <= Self.verticalRateMargin + Self.verticalRateChangePerSecond * t
            else { return false }
        }
        if let geoMinusBaro, let before = earlier.geoMinusBaro {
            guard Double(abs(geoMinusBaro - before)) <= Self.heightOffsetMargin + Self.heightOffsetChangePerSecond * t
            else { return false }
        }
        return true
    }
}
