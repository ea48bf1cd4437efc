import FoundationEssentials
import Testing
import Tracking

#if canImport(Glibc)
    import Glibc
#endif

/// The recent signal level kept in each aircraft's state, aircraft.json's `rssi`.
@Suite struct SignalHistoryTests {
    @Test func theLevelIsTheMeanPowerOfTheLastMessages() throws {
        var history = SignalHistory()
        #expect(history.meanDBFS == nil)
        history.record(dBFS: -10)
        history.record(dBFS: -20)
        let expected = 10 * log10((pow(10, -1.0) + pow(10, -2.0)) / 2)
        #expect(abs(try #require(history.meanDBFS) - expected) < 1e-9)
    }

    @Test func olderMessagesFallOutOfTheWindow() throws {
        var history = SignalHistory()
        for _ in 0..<SignalHistory.window { history.record(dBFS: -40) }
        for _ in 0..<SignalHistory.window { history.record(dBFS: -6) }
        #expect(abs(try #require(history.meanDBFS) - -6) < 1e-9)
    }

    @Test func anUnmeasuredLevelIsLeftOut() throws {
        var history = SignalHistory()
        history.record(dBFS: .nan)
        #expect(history.meanDBFS == nil)
        history.record(dBFS: -3)
        history.record(dBFS: -.infinity)
        #expect(abs(try #require(history.meanDBFS) - -3) < 1e-9)
    }
}
