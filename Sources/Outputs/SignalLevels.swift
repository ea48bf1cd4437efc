import FoundationEssentials
import Synchronization
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The recent signal level of each aircraft, for the `rssi` of aircraft.json: the mean power
/// of its last eight messages, in dBFS.
///
/// Averaging power over a few messages steadies the figure (single messages vary by several
/// dB with antenna patterns and overlaps) while still following an aircraft that approaches.
/// Updated from the receiving thread, read once a second; both under a short lock.
package final class SignalLevels: Sendable {
    /// Messages averaged per aircraft.
    package static let window = 8
    /// The most aircraft remembered: as many as the tracker holds. Aircraft are forgotten
    /// when aircraft.json is built; with nobody asking for it (the web server's copy), or
    /// under a flood of made-up addresses, the record starts afresh at this size instead of
    /// growing (the levels come back within a few messages).
    package static let capacity = Tracker.defaultMaximumAircraft

    private struct Recent: Sendable {
        var powers: [Double] = []
        var next = 0

        mutating func add(_ power: Double) {
            if powers.count < SignalLevels.window {
                powers.append(power)
            } else {
                powers[next] = power
                next = (next + 1) % SignalLevels.window
            }
        }
    }

    private let levels = Mutex<[UInt32: Recent]>([:])

    /// An empty record.
    package init() {}

    /// Records a message received at `dBFS` from the aircraft with tracker key `key`
    /// (`AircraftState.key`).
    package func record(key: UInt32, dBFS: Double) {
        guard dBFS.isFinite else { return }
        let power = pow(10, dBFS / 10)
        levels.withLock { levels in
            if levels.count >= Self.capacity, levels[key] == nil { levels.removeAll(keepingCapacity: true) }
            levels[key, default: Recent()].add(power)
        }
    }

    /// Aircraft remembered now.
    var count: Int { levels.withLock { $0.count } }

    /// The mean level of the recent messages from each aircraft in `keys`, in dBFS; aircraft
    /// not in `keys` are forgotten (they expired from the tracker).
    package func levels(keeping keys: [UInt32]) -> [UInt32: Double] {
        let wanted = Set(keys)
        return levels.withLock { levels in
            levels = levels.filter { wanted.contains($0.key) }
            return levels.compactMapValues { recent in
                guard !recent.powers.isEmpty else { return nil }
                let mean = recent.powers.reduce(0, +) / Double(recent.powers.count)
                return mean > 0 ? 10 * log10(mean) : nil
            }
        }
    }
}
