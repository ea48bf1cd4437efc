import Identity
import Support
import TestSupport
import Testing
import Tracking

@testable import Receivers

@Suite struct RouteCacheTests {
    static let start = ContinuousClock.now
    static let route = FlightRoute(
        callsign: "BAW123", origin: FlightRoute.Airport(icao: "EGLL", iata: "LHR")!,
        destination: FlightRoute.Airport(icao: "KJFK", iata: nil)!)

    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }

    @Test func callsignsAreNormalisedOrRefused() {
        #expect(RouteCache.normalise("  baw123 ") == "BAW123")
        #expect(RouteCache.normalise("EZY12AB") == "EZY12AB")
        #expect(RouteCache.normalise("AB") == "AB")
        for bad in [
            "", "A", "BAW 123", "BAW-123", "BAW123456", "BAW/../1", "BAW%20", "ÄBC123", "BAW\n123", "12345678 9"
        ] {
            #expect(RouteCache.normalise(bad) == nil, "\(bad)")
        }
    }

    @Test func dueHandsOutNewCallsignsOnceAtMostTwoAtATime() {
        var cache = RouteCache()
        let seen = ["BAW123", "baw123 ", "DLH4", "bad callsign", "AFR1"]
        #expect(cache.due(callsigns: seen, now: Self.at(0)) == ["BAW123", "DLH4"])
        #expect(cache.due(callsigns: seen, now: Self.at(0)) == [])
        cache.record("BAW123", .route(Self.route), now: Self.at(1))
        #expect(cache.due(callsigns: seen, now: Self.at(1)) == ["AFR1"])
        cache.abandon("DLH4")
        #expect(cache.due(callsigns: seen, now: Self.at(1)) == ["DLH4"])
        #expect(cache.inFlight == ["AFR1", "DLH4"])
    }

    @Test func answersStayFreshForADay() {
        var cache = RouteCache()
        _ = cache.due(callsigns: ["BAW123", "XYZ9"], now: Self.at(0))
        cache.record("BAW123", .route(Self.route), now: Self.at(0))
        cache.record("XYZ9", .unknown, now: Self.at(0))
        let day = 86_400.0
        #expect(cache.route(for: " baw123", now: Self.at(day - 1)) == Self.route)
        #expect(cache.routes(for: ["BAW123 ", "XYZ9", "NEW1"], now: Self.at(1)) == ["BAW123 ": Self.route])
        #expect(cache.route(for: "XYZ9", now: Self.at(1)) == nil)
        #expect(cache.entry(for: "XYZ9") == .unknown(until: Self.at(day)))
        #expect(cache.due(callsigns: ["BAW123", "XYZ9"], now: Self.at(day - 1)) == [])
        #expect(cache.due(callsigns: ["BAW123", "XYZ9"], now: Self.at(day)) == ["BAW123", "XYZ9"])
        #expect(cache.route(for: "BAW123", now: Self.at(day)) == nil)
    }

    @Test func failuresBackOffDoublingToAnHour() {
        var cache = RouteCache()
        var generator = SplitMix(state: 7)
        var now = Self.at(0)
        var waits: [Double] = []
        for _ in 0..<10 {
            #expect(cache.due(callsigns: ["FAIL1"], now: now) == ["FAIL1"])
            cache.recordFailure("FAIL1", now: now, using: &generator)
            guard case .failing(_, let retryAt)? = cache.entry(for: "FAIL1") else {
                Issue.record("not failing: \(String(describing: cache.entry(for: "FAIL1")))")
                return
            }
            #expect(cache.due(callsigns: ["FAIL1"], now: retryAt - .milliseconds(1)) == [])
            waits.append((retryAt - now).inSeconds)
            now = retryAt
        }
        guard case .failing(let attempts, _)? = cache.entry(for: "FAIL1") else { return }
        #expect(attempts == 10)
        // The n-th wait is 60 s · 2^(n-1), at most an hour, times a jitter in [0.5, 1].
        for (index, wait) in waits.enumerated() {
            let base = min(60 * Double(1 << index), 3_600)
            #expect(wait >= base * 0.5 && wait <= base, "wait \(index + 1): \(wait) s")
        }
        #expect(Set(waits.map { ($0 * 1000).rounded() }).count == waits.count, "jitter makes every wait different")

        cache.record("FAIL1", .unknown, now: now)
        #expect(cache.entry(for: "FAIL1") == .unknown(until: now + .seconds(86_400)))
        cache.recordFailure("FAIL1", now: now, using: &generator)
        guard case .failing(1, _)? = cache.entry(for: "FAIL1") else {
            Issue.record("a failure after an answer starts the count again")
            return
        }
    }

    @Test func theOldestEntriesAreEvictedPastTheLimit() {
        var cache = RouteCache(limits: RouteCache.Limits(maximumEntries: 100, maximumInFlight: 1_000))
        let callsigns = (0..<150).map { "AB\($0)" }
        _ = cache.due(callsigns: callsigns, now: Self.at(0))
        for (index, callsign) in callsigns.enumerated() {
            cache.record(callsign, .unknown, now: Self.at(Double(index)))
            #expect(cache.count <= 100)
        }
        #expect(cache.count >= 90)
        #expect(cache.entry(for: "AB149") != nil)
        #expect(cache.entry(for: "AB0") == nil)
        let kept = callsigns.filter { cache.entry(for: $0) != nil }
        #expect(kept == Array(callsigns.suffix(kept.count)), "only the newest are kept")
    }
}
