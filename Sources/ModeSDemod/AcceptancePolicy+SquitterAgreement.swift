import ModeS

/// The tests that hold a weakly checked message against what its aircraft squittered
/// before (`SquitterReports`, kept from squitters whose whole CRC checked them): a wrong bit
/// that names another aircraft, or a repair of a wreck, shows as an altitude, code or
/// message that aircraft could not have sent.
extension AcceptancePolicy {
    /// The altitude and identity agreement: whether an address/parity reply agrees with what the
    /// aircraft its parity names last reported in its extended squitters (`reports`, see
    /// `SquitterReports`): the altitude of a DF0/4/16/20 within `altitudeMargin` of the one
    /// reported, allowing a climb or descent of `climbRate` since; the Mode A code of a DF5/21 the
    /// same. A wrong bit in the parity field names another aircraft, one heard when addresses
    /// cluster as a country's do; the altitude or code is then the sender's, and would be shown as
    /// the named aircraft's. Nothing reported: nothing to hold against. (On the simulated skies,
    /// true replies were never more than 200 ft off, and the wrong ones thousands of feet.)
    static func agreesWithSquitters(_ bits: ModeSBits, reports: SquitterReports, at time: Double) -> Bool {
        let named = CRC.syndrome(of: bits)
        switch bits.downlinkFormat {
        case 0, 4, 16, 20:
            guard let reported = reports.altitude(of: named, at: time),
                let (feet, _) = AltitudeCode.decode13(UInt32(bits.field(20, 32)))
            else { return true }
            return altitude(feet, keepsTo: reported, at: time)
        case 5, 21:
            guard let reported = reports.identity(of: named, at: time) else { return true }
            return Int(bits.field(20, 32)) == reported.value
        default:
            return true
        }
    }

    /// The repair-squitter agreement: whether a three-bit repair of a DF17/18 (`repaired`) agrees
    /// with what its aircraft reported before in squitters whose whole CRC checked them
    /// (`reports`): an airborne position's altitude as in the altitude and identity agreement, a
    /// velocity one that could follow the last (`VelocityReport.couldFollow`), and a message of a
    /// kind that seldom changes (`SquitterReports.Steady`: callsign, status, target state,
    /// operational status) the same as the last of its kind. Another reply across a strong squitter
    /// flips its bits firmly; three flips reach so many syndromes that a repair of such a wreck
    /// sometimes checks, and then puts a wrong callsign or status on a known aircraft (on the
    /// simulated skies, about one in 600 of these repairs). A surface position (type codes 5–8)
    /// from an aircraft that reported an airborne altitude within `SquitterReports.maximumAge` is
    /// refused as well: the one such repair on the simulated skies was the wreck of a squitter
    /// under two stronger replies. An aircraft that has just landed loses only those of its first
    /// surface positions that needed three flips. Nothing reported: nothing to hold against.
    /// Whatever was reported, a repair to a type code the standard reserves (25–27 and 30), which
    /// no transponder sends, is refused: on a simulated sky of replies at 3–6 dB one repair of a
    /// target-state squitter came out as type code 25, on ground.
    static func repairAgreesWithSquitters(_ repaired: ModeSBits, reports: SquitterReports, at time: Double) -> Bool {
        let address = UInt32(repaired.field(9, 32))
        let typeCode = repaired.field(33, 37)
        if reservedTypeCodes.contains(typeCode) { return false }
        if (5...8).contains(typeCode) { return reports.altitude(of: address, at: time) == nil }
        if (9...18).contains(typeCode) {
            guard let reported = reports.altitude(of: address, at: time),
                let feet = AltitudeCode.decode12(UInt32(repaired.field(41, 52)))
            else { return true }
            return altitude(feet, keepsTo: reported, at: time)
        }
        if typeCode == 19 {
            guard let report = VelocityReport(repaired), let last = reports.velocity(of: address, at: time),
                let earlier = VelocityReport(last.bits)
            else { return true }
            return report.couldFollow(earlier, after: time - last.time)
        }
        guard let kind = SquitterReports.Steady(typeCode: typeCode),
            let last = reports.steady(kind, of: address, at: time)
        else { return true }
        return repaired.field(33, 88) == last
    }

    /// The small-repair squitter agreement: whether the DF17/18 `bits`, once repaired by `fix` (the
    /// one or two bits the validator will turn, see `RepairGate.repair`; nil when none), agree with
    /// what their aircraft squittered before, as the repair-squitter agreement asks of a three-bit
    /// repair: only for a reply `clearOfNoise` (four floors or more above the floor). There the
    /// wrong bits come from another reply across it rather than from noise, and such a wreck, wrong
    /// in eight bits or more, now and then checks after two flips. On dense skies of three seeds no
    /// rule was tuned on, two of four false squitters were such (a target state, and a position at
    /// 28,225 ft from an aircraft at 2,600 ft), and no true frame was lost on 27 streams. Nearer
    /// the noise the wrong bits are few and the repair mostly right: there the same test cost 37
    /// true frames over the 3–6 dB streams.
    static func smallRepairAgreesWithSquitters(
        _ bits: ModeSBits, fix: (first: Int, second: Int)?,
        clearOfNoise: @autoclosure () -> Bool,
        reports: SquitterReports, at time: Double
    ) -> Bool {
        guard let fix, bits.downlinkFormat == 17 || bits.downlinkFormat == 18, clearOfNoise() else { return true }
        var repaired = bits
        repaired.flipBit(fix.first)
        if fix.second > 0 { repaired.flipBit(fix.second) }
        return repairAgreesWithSquitters(repaired, reports: reports, at: time)
    }

    /// The extended squitter type codes the standard reserves: no transponder sends them.
    static let reservedTypeCodes: [UInt64] = [25, 26, 27, 30]

    /// Whether an altitude of `feet` heard at `time` is within `altitudeMargin` of the one
    /// `reported`, allowing a climb or descent of `climbRate` since (the repair-squitter agreement
    /// and the altitude and identity agreement).
    private static func altitude(_ feet: Int, keepsTo reported: SquitterReports.Report, at time: Double) -> Bool {
        Double(abs(feet - reported.value)) <= altitudeMargin + climbRate * max(0, time - reported.time)
    }

    /// The difference in feet the altitude and identity agreement allows at once: a Mode C altitude
    /// is rounded to 100 ft.
    static let altitudeMargin = 300.0

    /// The climb or descent in feet per second the altitude and identity agreement allows on top:
    /// 100, steeper than any airliner's (about 6,000 ft a minute).
    static let climbRate = 100.0
}
