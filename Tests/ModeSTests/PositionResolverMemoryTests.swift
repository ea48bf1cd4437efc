import TestSupport
import Testing

@testable import ModeS

/// Memory of the resolver and the address filter stays bounded whatever the times say.
@Suite struct PositionResolverMemoryTests {
    func message(_ icao: UInt32, odd: Bool) -> Message {
        var message = Message(df: 17, icao: icao, crcOK: true)
        message.cpr = cprEncode(52 + Double(icao % 100) * 0.001, 4, odd: odd)
        return message
    }

    /// Aircraft heard within ten minutes plus those added between two prunings.
    static let normalBound = 600 + PositionResolver.pruneEvery

    @Test(.computeBound) func aTimeFarInTheFutureDoesNotStopPruning() {
        for poison in [1e12, -1e12, 4e9] {
            var resolver = PositionResolver()
            var first = message(1, odd: false)
            resolver.resolve(&first, time: poison)
            // A new aircraft every second for a day.
            for index in 0..<86_400 {
                var next = message(UInt32(index) + 2, odd: index % 2 == 0)
                resolver.resolve(&next, time: 1_700_000_000 + Double(index))
            }
            #expect(resolver.rememberedAircraft <= Self.normalBound, "after a time of \(poison)")
        }
    }

    @Test func theNumberOfAircraftIsCappedWhateverTheTimes() {
        var resolver = PositionResolver()
        // All at the same moment: nothing is old enough to be pruned by time.
        for index in 0..<(PositionResolver.maximumAircraft * 3) {
            var next = message(UInt32(index) + 1, odd: false)
            resolver.resolve(&next, time: 100)
            #expect(resolver.rememberedAircraft <= PositionResolver.maximumAircraft)
            if resolver.rememberedAircraft > PositionResolver.maximumAircraft { return }
        }
        // The aircraft heard last are still paired.
        var last = message(UInt32(PositionResolver.maximumAircraft * 3), odd: true)
        resolver.resolve(&last, time: 101)
        #expect(last.latitude != nil)
    }

    @Test func nonFiniteTimesLeaveNoTrace() {
        var resolver = PositionResolver()
        for time in [Double.nan, .infinity, -.infinity] {
            var next = message(9, odd: false)
            resolver.resolve(&next, time: time)
            #expect(next.latitude == nil)
        }
        #expect(resolver.rememberedAircraft == 0)
    }

    @Test func theAddressFilterExpiresAfterAFutureTime() {
        var filter = ICAOFilter(expiry: 60)
        filter.confirm(1, at: 1e15)
        for index in 0..<20_000 {
            filter.confirm(UInt32(index) + 2, at: 1_700_000_000 + Double(index) * 0.1)
        }
        // At most two minutes of addresses, ten a second.
        #expect(filter.count <= 1_201)
        let stillKnown = filter.contains(20_001, at: 1_700_002_000)
        #expect(stillKnown)
    }

    @Test func theAddressFilterIsCappedWhateverTheTimes() {
        var filter = ICAOFilter(expiry: 60)
        for index in 0..<(ICAOFilter.maximumGeneration * 3) { filter.confirm(UInt32(index), at: 5) }
        #expect(filter.count <= 2 * ICAOFilter.maximumGeneration)
    }
}
