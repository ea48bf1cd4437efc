import Testing

@testable import History

/// The thinning rule: straight flight keeps one point per `maxInterval`, a turn or a change
/// of climb keeps the points around it.
@Suite struct TrackThinnerTests {
    /// A point of aircraft 0xABCDEF at `time` heading `track` at `altitude` climbing `rate`.
    func point(_ time: Double, track: Double = 90, altitude: Int = 10_000, rate: Int = 0) -> TrackPoint {
        TrackPoint(
            address: 0xABC_DEF, time: time, latitude: 52, longitude: 4 + time * 0.001, altitudeFt: altitude,
            groundSpeedKt: 250, trackDeg: track, verticalRateFpm: rate)
    }

    @Test func straightLevelFlightKeepsOnePointPerInterval() {
        var thinner = TrackThinner()
        var kept: [TrackPoint] = []
        for second in 0...300 { kept += thinner.offer(point(Double(second))) }
        let rule = TrackThinner.Rule()
        // The first, then one every maxInterval: 0, 30, 60, ..., 300.
        #expect(kept.map(\.time) == stride(from: 0.0, through: 300, by: rule.maxInterval).map { $0 })
    }

    @Test func aTurnKeepsThePointBeforeItAndTheTurningPoints() {
        var thinner = TrackThinner()
        var kept: [TrackPoint] = []
        for second in 0..<10 { kept += thinner.offer(point(Double(second))) }
        // A turn of 3° per second from second 10.
        for second in 10..<20 { kept += thinner.offer(point(Double(second), track: 90 + Double(second - 9) * 3)) }
        let times = kept.map(\.time)
        #expect(times.first == 0)
        // 93° at 10 s is within 4° of 90°; 96° at 11 s is not: 10 s (the last skipped) and 11 s are kept.
        #expect(times.contains(10) && times.contains(11), "\(times)")
        // Through the turn a point at least every two seconds (6° per two seconds).
        #expect(times.count >= 6, "\(times)")
    }

    @Test func aChangeOfClimbIsKept() {
        var thinner = TrackThinner()
        var kept: [TrackPoint] = []
        for second in 0..<5 { kept += thinner.offer(point(Double(second))) }
        kept += thinner.offer(point(5, rate: 1500))
        #expect(kept.map(\.time) == [0, 4, 5])
    }

    @Test func trackChangesWrapAroundNorth() {
        #expect(TrackThinner.angleBetween(359, 1) == 2)
        #expect(TrackThinner.angleBetween(10, 190) == 180)
        #expect(TrackThinner.angleBetween(-10, 10) == 20)
        var thinner = TrackThinner()
        _ = thinner.offer(point(0, track: 358))
        // Crossing north by 4° is not a turn worth a point.
        #expect(thinner.offer(point(2, track: 1)).isEmpty)
    }

    @Test func pointsCloserThanTheMinimumAreNeverKept() {
        var thinner = TrackThinner()
        _ = thinner.offer(point(0))
        #expect(thinner.offer(point(0.5, track: 180)).isEmpty)
    }
}
