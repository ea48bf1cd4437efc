import ModeS

/// What each aircraft last reported in its extended squitters, and when: its barometric
/// altitude (airborne positions, type codes 9–18), its Mode A code (aircraft status, type
/// code 28 subtype 1), its velocity (type code 19, `VelocityReport`), and the whole message
/// of each kind that seldom changes (`Steady`). An
/// address/parity reply naming that aircraft (`AcceptancePolicy.agreesWithSquitters`) and a
/// three-bit repair of its squitters (`AcceptancePolicy.repairAgreesWithSquitters`) are held
/// against them.
///
/// Only DF17/18 fill it: their whole CRC checks these bits, while an address/parity reply
/// with a wrong bit in its parity names another aircraft and carries the sender's altitude or
/// code, which would otherwise be shown as the named one's. (A repaired squitter is recorded
/// too, once believed.)
///
/// Holds at most one entry per address heard; entries older than `maximumAge` are dropped
/// when the table has doubled since it was last pruned, so it stays about the size of the sky.
/// Updating an address already held allocates nothing.
struct SquitterReports {
    /// One value an aircraft reported, and when (seconds into the stream).
    struct Report: Equatable {
        /// Feet for an altitude; the 13 bits of the identity field's layout for a Mode A code.
        var value: Int
        var time: Double
    }

    /// How long a report is held against replies (seconds): longer than the gaps between an
    /// aircraft's positions (about two a second) and status squitters (one in about five
    /// seconds), short enough that the climb allowance stays small and a new squawk is soon
    /// learnt.
    static let maximumAge = 30.0

    /// The squitters whose whole message an aircraft repeats, for long stretches, unchanged.
    enum Steady: Int, CaseIterable {
        /// Identification and category (type codes 1–4): the callsign.
        case identification
        /// Aircraft status (type code 28): emergency and Mode A code.
        case status
        /// Target state and status (type code 29): the selected altitude and heading.
        case targetState
        /// Operational status (type code 31): capabilities, version, accuracies.
        case operationalStatus

        /// The kind of a squitter with type code `typeCode`, if it is one of these.
        init?(typeCode: UInt64) {
            switch typeCode {
            case 1...4: self = .identification
            case 28: self = .status
            case 29: self = .targetState
            case 31: self = .operationalStatus
            default: return nil
            }
        }
    }

    /// What one address reported.
    private struct Entry {
        var altitude: Report?
        var identity: Report?
        /// The last message (its 56 ME bits) of each `Steady` kind, and when.
        var steady: [(message: UInt64, time: Double)?] = Array(repeating: nil, count: Steady.allCases.count)
        /// The last velocity squitter of a known subtype, and when: decoded only when a
        /// repair is held against it (`VelocityReport`), far less often than one arrives.
        var velocity: (bits: ModeSBits, time: Double)?

        func isFresh(at time: Double) -> Bool {
            ([altitude?.time, identity?.time, velocity?.time] + steady.map { $0?.time })
                .contains { $0.map { time - $0 <= maximumAge } ?? false }
        }
    }

    private var entries: [UInt32: Entry] = [:]
    private var pruneAt = 1024

    /// Records what the DF17/18 `bits` from `address`, heard at `time`, report (nothing for
    /// other formats and type codes).
    mutating func record(_ bits: ModeSBits, address: UInt32, at time: Double) {
        let format = bits.downlinkFormat
        guard format == 17 || format == 18 else { return }
        let typeCode = bits.field(33, 37)
        if (9...18).contains(typeCode), let feet = AltitudeCode.decode12(UInt32(bits.field(41, 52))) {
            entries[address, default: Entry()].altitude = Report(value: feet, time: time)
        } else if typeCode == 19, (1...4).contains(bits.field(38, 40)) {
            entries[address, default: Entry()].velocity = (bits, time)
        } else if let kind = Steady(typeCode: typeCode) {
            entries[address, default: Entry()].steady[kind.rawValue] = (bits.field(33, 88), time)
            if kind == .status, bits.field(38, 40) == 1 {
                entries[address]?.identity = Report(value: Int(bits.field(44, 56)), time: time)
            }
        } else {
            return
        }
        if entries.count >= pruneAt {
            entries = entries.filter { $0.value.isFresh(at: time) }
            pruneAt = max(1024, 2 * entries.count)
        }
    }

    /// The altitude (feet) `address` last reported, when within `maximumAge` of `time`.
    func altitude(of address: UInt32, at time: Double) -> Report? {
        Self.fresh(entries[address]?.altitude, at: time)
    }

    /// The Mode A code `address` last reported, when within `maximumAge` of `time`.
    func identity(of address: UInt32, at time: Double) -> Report? {
        Self.fresh(entries[address]?.identity, at: time)
    }

    /// The last message (56 ME bits) of `kind` that `address` sent, when within
    /// `maximumAge` of `time`.
    func steady(_ kind: Steady, of address: UInt32, at time: Double) -> UInt64? {
        guard let last = entries[address]?.steady[kind.rawValue], time - last.time <= Self.maximumAge else {
            return nil
        }
        return last.message
    }

    /// The velocity squitter `address` last sent and when, if within `maximumAge` of `time`.
    func velocity(of address: UInt32, at time: Double) -> (bits: ModeSBits, time: Double)? {
        guard let last = entries[address]?.velocity, time - last.time <= Self.maximumAge else { return nil }
        return last
    }

    /// How many addresses the table holds.
    var count: Int { entries.count }

    private static func fresh(_ report: Report?, at time: Double) -> Report? {
        guard let report, time - report.time <= maximumAge else { return nil }
        return report
    }
}
