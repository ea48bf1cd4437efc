import Tracking

/// Decides when each aircraft's state is published: at most once every `minimumInterval`
/// seconds per aircraft (the latest state wins; the updates in between are folded into it),
/// and once more, empty, when the aircraft has not been heard for `expireAfter` seconds, so
/// that its retained message disappears as the aircraft leaves the tracker.
///
/// A plain value with the time passed in; the publisher keeps one under its lock. Its
/// memory follows the aircraft tracked: every entry goes at expiry, and no more aircraft are
/// taken than the tracker holds (`capacity`), whatever a flood of made-up addresses brings.
package struct AircraftPublications: Sendable {
    /// What is due at a moment.
    package struct Due: Sendable {
        /// States to publish.
        package var states: [AircraftState] = []
        /// Topic names (`AircraftPublications.topicName`) of the aircraft that expired.
        package var expired: [String] = []
    }

    private struct Published: Sendable {
        var at: Double
        var lastSeen: Double
        var name: String
    }

    /// Shortest time between two messages about one aircraft, seconds.
    package let minimumInterval: Double
    /// Seconds without a message after which an aircraft is gone (the tracker's expiry).
    package let expireAfter: Double
    private var waiting: [UInt32: AircraftState] = [:]
    private var published: [UInt32: Published] = [:]
    /// The most aircraft scheduled at once: as many as the tracker holds.
    package static let capacity = Tracker.defaultMaximumAircraft
    /// Updates of further aircraft not scheduled because `capacity` were.
    package private(set) var dropped = 0

    /// A schedule with the given limits.
    package init(minimumInterval: Double = 1, expireAfter: Double = Tracker.expireAfter) {
        self.minimumInterval = minimumInterval
        self.expireAfter = expireAfter
    }

    /// Aircraft with a retained message out (or about to be).
    package var count: Int { Set(waiting.keys).union(published.keys).count }

    /// The aircraft's last level of its topic: the address as aircraft.json writes it, six
    /// lower-case hex digits with `~` before a non-ICAO address.
    package static func topicName(of state: AircraftState) -> String {
        (state.addressType.isICAO ? "" : "~") + state.icaoHex
    }

    /// Records the aircraft's latest state.
    package mutating func update(_ state: AircraftState) {
        if waiting[state.key] == nil, published[state.key] == nil, waiting.count + published.count >= Self.capacity {
            dropped += 1
            return
        }
        waiting[state.key] = state
    }

    /// What to publish at `now` (seconds since 1970, the tracker's clock). An aircraft last
    /// published after `now` (the wall clock stepped back) is due at once.
    package mutating func due(at now: Double) -> Due {
        var due = Due()
        for (key, state) in waiting {
            if let last = published[key], (0..<minimumInterval).contains(now - last.at) { continue }
            due.states.append(state)
            published[key] = Published(at: now, lastSeen: state.lastSeen, name: Self.topicName(of: state))
            waiting[key] = nil
        }
        for (key, entry) in published where waiting[key] == nil && now - entry.lastSeen > expireAfter {
            due.expired.append(entry.name)
            published[key] = nil
        }
        due.states.sort { $0.key < $1.key }
        due.expired.sort()
        return due
    }
}
