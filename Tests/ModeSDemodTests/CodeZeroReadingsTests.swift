import TestSupport
import Testing

@testable import ModeSDemod

@Suite(.computeBound) struct CodeZeroReadingsTests {
    /// A reading counts for the same address within the reach, and for no other.
    @Test func aReadingCountsNearbyForItsAddressOnly() {
        var readings = CodeZeroReadings()
        #expect(!readings.contains(address: 0, near: 0, reach: 1))
        readings.record(address: 0x4840D6, at: 1_000)
        #expect(readings.contains(address: 0x4840D6, near: 1_001, reach: 1))
        #expect(readings.contains(address: 0x4840D6, near: 999, reach: 1))
        #expect(readings.contains(address: 0x4840D6, near: 1_000, reach: 0))
        #expect(!readings.contains(address: 0x4840D6, near: 1_002, reach: 1))
        #expect(!readings.contains(address: 0x4840D7, near: 1_000, reach: 1))
    }

    /// Only the last `capacity` readings are kept.
    @Test func theOldestReadingIsForgotten() {
        var readings = CodeZeroReadings()
        for index in 0...CodeZeroReadings.capacity {
            readings.record(address: UInt32(0x100 + index), at: 10 * index)
        }
        #expect(!readings.contains(address: 0x100, near: 0, reach: 1))
        #expect(readings.contains(address: 0x101, near: 10, reach: 1))
        #expect(
            readings.contains(
                address: UInt32(0x100 + CodeZeroReadings.capacity),
                near: 10 * CodeZeroReadings.capacity, reach: 1))
    }
}
