import ModeS
import Support
import TestSupport
import Testing

@testable import Receivers

@Suite struct OpenSkyQueryTests {
    @Test func theBoxIsAroundThePositionRoundedToATenthOfADegree() {
        let query = OpenSkyQuery(receiver: GeoPoint(latitude: 51.4779, longitude: -0.0015))
        #expect(query.centre == GeoPoint(latitude: 51.5, longitude: 0))
        #expect(query.queryString == "lamin=51.25&lomin=-0.5&lamax=51.75&lomax=0.5")
    }

    @Test func southernAndWesternHemispheresAndCustomSpans() {
        let sydney = OpenSkyQuery(receiver: GeoPoint(latitude: -33.8688, longitude: 151.2093))
        #expect(sydney.queryString == "lamin=-34.15&lomin=150.7&lamax=-33.65&lomax=151.7")
        let custom = OpenSkyQuery(
            receiver: GeoPoint(latitude: 40.6413, longitude: -73.7781),
            latitudeHalfSpan: 1, longitudeHalfSpan: 1.25)
        #expect(custom.queryString == "lamin=39.6&lomin=-75.05&lamax=41.6&lomax=-72.55")
    }

    @Test func roundingIsToTheNearestTenth() {
        #expect(
            OpenSkyQuery.rounded(GeoPoint(latitude: 47.04, longitude: 8.06)) == GeoPoint(latitude: 47, longitude: 8.1))
        #expect(
            OpenSkyQuery.rounded(GeoPoint(latitude: -0.04, longitude: -179.96))
                == GeoPoint(latitude: 0, longitude: -180))
        let rounded = OpenSkyQuery.rounded(GeoPoint(latitude: -0.04, longitude: 0.04))
        #expect(rounded.latitude.sign == .plus, "no -0 to print")
    }

    @Test func theBoxStaysOnTheGlobe() {
        let pole = OpenSkyQuery(receiver: GeoPoint(latitude: 89.9, longitude: 179.9))
        #expect(pole.queryString == "lamin=89.65&lomin=179.4&lamax=90&lomax=180")
        let south = OpenSkyQuery(receiver: GeoPoint(latitude: -89.95, longitude: -179.97))
        #expect(south.latitudeMin == -90 && south.longitudeMin == -180)
    }

    @Test func edgesPrintWithoutBinaryNoise() {
        #expect(OpenSkyQuery.format(47.3 - 0.25) == "47.05")
        #expect(OpenSkyQuery.format(0.1 + 0.2) == "0.3")
        #expect(OpenSkyQuery.format(-0.00001) == "0")
        #expect(OpenSkyQuery.format(8) == "8")
    }
}

@Suite struct RetryPolicyTests {
    @Test func delaysDoubleWithJitterUpToTheCap() {
        let policy = RetryPolicy(initial: .seconds(2), maximum: .seconds(60))
        var generator = SplitMix(state: 7)
        for failures in 1...12 {
            let nominal = min(Duration.seconds(2) * (1 << (failures - 1)), .seconds(60))
            for _ in 0..<50 {
                let delay = policy.delay(afterFailures: failures, using: &generator)
                #expect(delay >= nominal / 2 && delay <= nominal, "failure \(failures): \(delay)")
            }
        }
    }

    @Test func jitterSpreadsTheDelays() {
        let policy = RetryPolicy()
        var generator = SplitMix(state: 1)
        let delays = Set((0..<20).map { _ in policy.delay(afterFailures: 3, using: &generator) })
        #expect(delays.count > 10)
    }

    @Test func hugeFailureCountsStayAtTheCap() {
        let policy = RetryPolicy(initial: .seconds(2), maximum: .seconds(120))
        #expect(policy.delay(afterFailures: .max) <= .seconds(120))
        #expect(policy.delay(afterFailures: 0) <= .seconds(2))
    }

    @Test func retryAfterHeaderValues() {
        let policy = RetryPolicy(maximumRetryAfter: .seconds(3600))
        #expect(policy.retryAfter(header: "30") == .seconds(30))
        #expect(policy.retryAfter(header: " 2.5 ") == .milliseconds(2500))
        #expect(policy.retryAfter(header: "0") == .zero)
        #expect(policy.retryAfter(header: "86400") == .seconds(3600))
        #expect(policy.retryAfter(header: "-1") == nil)
        #expect(policy.retryAfter(header: "soon") == nil)
        #expect(policy.retryAfter(header: "inf") == nil)
        #expect(policy.retryAfter(header: nil) == nil)
    }
}
