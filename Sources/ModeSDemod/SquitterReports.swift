import ModeS

/// What each aircraft last reported in its extended squitters, and when: its barometric
/// altitude (airborne positions, type codes 9–18) and its Mode A code (aircraft status, type
/// code 28 subtype 1). An address/parity reply naming that aircraft is held against them
/// (`AcceptancePolicy.agreesWithSquitters`).
///
/// Only DF17/18 fill it: their whole CRC checks these bits, while an address/parity reply
/// with a wrong bit in its parity names another aircraft and carries the sender's altitude or
/// code, which would otherwise be shown as the named one's.
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

    private var entries: [UInt32: (altitude: Report?, identity: Report?)] = [:]
    private var pruneAt = 1024

    /// Records what the DF17/18 `bits` from `address`, heard at `time`, report (nothing for
    /// other formats and type codes).
    mutating func record(_ bits: ModeSBits, address: UInt32, at time: Double) {
        let format = bits.downlinkFormat
        guard format == 17 || format == 18 else { return }
        let typeCode = bits.field(33, 37)
        if (9...18).contains(typeCode), let feet = AltitudeCode.decode12(UInt32(bits.field(41, 52))) {
            entries[address, default: (nil, nil)].altitude = Report(value: feet, time: time)
        } else if typeCode == 28, bits.field(38, 40) == 1 {
            entries[address, default: (nil, nil)].identity = Report(value: Int(bits.field(44, 56)), time: time)
        } else {
            return
        }
        if entries.count >= pruneAt {
            entries = entries.filter { _, entry in
                [entry.altitude, entry.identity].contains { $0.map { time - $0.time <= Self.maximumAge } ?? false }
            }
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

    /// How many addresses the table holds.
    var count: Int { entries.count }

    private static func fresh(_ report: Report?, at time: Double) -> Report? {
        guard let report, time - report.time <= maximumAge else { return nil }
        return report
    }
}
