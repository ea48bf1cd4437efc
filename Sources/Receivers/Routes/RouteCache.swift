import FoundationEssentials
import Identity
import ModeS
import Support

/// What is known of each callsign's route and when to ask again: the route lookup's state
/// machine, with the time passed in.
///
/// Per callsign the cache holds one of
/// - `known(route, until)`: the service gave a route, good for `freshness` (a day: airlines
///   fly a callsign on the same route every day);
/// - `unknown(until)`: the service does not know the callsign; not asked again for as long;
/// - `failing(attempts, retryAt)`: the last attempts failed; asked again after a backoff that
///   doubles from a minute to an hour, with jitter so that callsigns that failed together do
///   not all come back together (`RetryPolicy`).
///
/// `due(callsigns:now:)` picks the callsigns to ask for now among those currently seen:
/// never asked, expired, or past their retry time, and not already being asked; no more than
/// `maximumInFlight` at once, so a flood of new aircraft becomes a trickle of requests.
/// Only callsigns that `normalise` accepts are ever looked up. The cache holds at most
/// `maximumEntries` callsigns; past that the least recently answered tenth is dropped.
package struct RouteCache: Sendable {
    /// The clock's time.
    package typealias Instant = ContinuousClock.Instant

    /// What is known of one callsign.
    package enum Entry: Sendable, Equatable {
        /// The route, good until the instant.
        case known(FlightRoute, until: Instant)
        /// The service does not know the callsign; not asked again before the instant.
        case unknown(until: Instant)
        /// `attempts` consecutive lookups failed; the next is not made before `retryAt`.
        case failing(attempts: Int, retryAt: Instant)
    }

    /// How long answers last, how failures back off and how much is held.
    package struct Limits: Sendable {
        /// How long a route or an "unknown" answer is kept: a day.
        package var freshness: Duration
        /// The backoff after failures: a minute doubling to an hour, with jitter.
        package var retry: RetryPolicy
        /// The most callsigns held.
        package var maximumEntries: Int
        /// The most lookups under way at once.
        package var maximumInFlight: Int

        /// Limits; the defaults are those described on the type.
        package init(
            freshness: Duration = .seconds(86_400),
            retry: RetryPolicy = RetryPolicy(initial: .seconds(60), maximum: .seconds(3_600)),
            maximumEntries: Int = 10_000, maximumInFlight: Int = 2
        ) {
            self.freshness = freshness
            self.retry = retry
            self.maximumEntries = max(1, maximumEntries)
            self.maximumInFlight = max(1, maximumInFlight)
        }
    }

    private struct Slot {
        var entry: Entry
        /// When the entry was last written: eviction drops the oldest first.
        var written: Instant
    }

    /// The limits in force.
    package let limits: Limits
    private var slots: [String: Slot] = [:]
    /// The callsigns handed out by `due` and not yet answered.
    package private(set) var inFlight: Set<String> = []

    /// An empty cache.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many callsigns the cache holds.
    package var count: Int { slots.count }

    /// The form a callsign is looked up in: without surrounding white space, upper case; nil
    /// unless it is then 2 to 8 ASCII letters and digits (what a Mode S callsign can carry,
    /// without the padding). Nothing else is ever sent to the service.
    package static func normalise(_ callsign: String) -> String? {
        let trimmed = callsign.trimmingWhitespace().uppercased()
        guard (2...8).contains(trimmed.utf8.count),
            trimmed.utf8.allSatisfy({
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            })
        else { return nil }
        return trimmed
    }

    /// The normalised callsigns among `callsigns` to look up now, marked as in flight until
    /// `record` or `abandon`: those never asked, first, then those whose answer expired or
    /// whose retry time has come; no more than the free lookup slots.
    package mutating func due(callsigns: some Sequence<String>, now: Instant) -> [String] {
        let free = limits.maximumInFlight - inFlight.count
        guard free > 0 else { return [] }
        var new: [String] = []
        var stale: [String] = []
        var seen = Set<String>()
        for raw in callsigns {
            guard let callsign = Self.normalise(raw), seen.insert(callsign).inserted,
                !inFlight.contains(callsign)
            else { continue }
            guard let slot = slots[callsign] else {
                new.append(callsign)
                continue
            }
            switch slot.entry {
            case .known(_, let until), .unknown(let until), .failing(_, let until):
                if until <= now { stale.append(callsign) }
            }
        }
        let chosen = Array((new + stale).prefix(free))
        inFlight.formUnion(chosen)
        return chosen
    }

    /// Stores the service's answer for `callsign`, received at `now`.
    package mutating func record(_ callsign: String, _ response: RouteResponse, now: Instant) {
        switch response {
        case .route(let route): store(callsign, .known(route, until: now + limits.freshness), now: now)
        case .unknown: store(callsign, .unknown(until: now + limits.freshness), now: now)
        }
    }

    /// Stores a failed lookup of `callsign` at `now`; the retry time comes from the backoff
    /// for the number of consecutive failures, with jitter from `generator`.
    package mutating func recordFailure(
        _ callsign: String, now: Instant, using generator: inout some RandomNumberGenerator
    ) {
        var attempts = 1
        if case .failing(let previous, _)? = slots[callsign]?.entry { attempts = previous + 1 }
        let delay = limits.retry.delay(afterFailures: attempts, using: &generator)
        store(callsign, .failing(attempts: attempts, retryAt: now + delay), now: now)
    }

    /// Forgets that `callsign` is in flight without an answer (the lookup was cancelled), so
    /// the next `due` may hand it out again.
    package mutating func abandon(_ callsign: String) {
        inFlight.remove(callsign)
    }

    /// The route of `callsign` (any spelling `normalise` accepts) while it is fresh at `now`.
    package func route(for callsign: String, now: Instant) -> FlightRoute? {
        guard let key = Self.normalise(callsign), case .known(let route, let until)? = slots[key]?.entry,
            now < until
        else { return nil }
        return route
    }

    /// The fresh routes of `callsigns` at `now`, keyed by each callsign as given; callsigns
    /// without one are absent.
    package func routes(for callsigns: [String], now: Instant) -> [String: FlightRoute] {
        var routes: [String: FlightRoute] = [:]
        for callsign in callsigns {
            if let route = route(for: callsign, now: now) { routes[callsign] = route }
        }
        return routes
    }

    /// What is stored for `callsign` (normalised), whatever its age.
    package func entry(for callsign: String) -> Entry? {
        Self.normalise(callsign).flatMap { slots[$0]?.entry }
    }

    private mutating func store(_ callsign: String, _ entry: Entry, now: Instant) {
        inFlight.remove(callsign)
        slots[callsign] = Slot(entry: entry, written: now)
        if slots.count > limits.maximumEntries { evictOldest() }
    }

    /// Drops the least recently written tenth of the entries (at least the one over the
    /// limit), so that a full cache sorts once per many insertions rather than on each one.
    private mutating func evictOldest() {
        let excess = slots.count - limits.maximumEntries + limits.maximumEntries / 10
        let oldest = slots.sorted { $0.value.written < $1.value.written }.prefix(max(1, excess))
        for (callsign, _) in oldest { slots.removeValue(forKey: callsign) }
    }
}
