import Foundation
import IQ
import Logging
import ModeS
import ModeSDemod
import Simulator
import Synchronization
import TestSupport
import Testing
import Tracking

@testable import Receivers

/// The sample clock, the ring that stamps blocks and the stream that turns them into
/// tracker times.
@Suite struct SampleClockTests {
    @Test func aFramesTimeIsItsBlocksArrivalLessTheSamplesAfterIt() {
        var clock = SampleClock(sampleRate: 2_400_000)
        clock.advance(count: 240_000, arrival: 1_000, dropped: 0)
        // Sample 0 is 0.1 s before the block's end; sample 240,000 at its end.
        #expect(abs(clock.stamp(timestamp: 0) - 999.9) < 1e-9)
        #expect(abs(clock.stamp(timestamp: 120_000 * 5) - 999.95) < 1e-9)
        #expect(clock.samples == 240_000)
    }

    @Test func droppedSamplesAdvanceTheSampleClock() {
        var clock = SampleClock(sampleRate: 2_400_000)
        clock.advance(count: 240_000, arrival: 1_000, dropped: 0)
        // One second lost, then a block that arrived 1.1 s later.
        clock.advance(count: 240_000, arrival: 1_001.1, dropped: 2_400_000)
        #expect(clock.samples == 2_880_000)
        #expect(clock.droppedSamples == 2_400_000)
        // The first sample after the gap: 12 MHz tick 2,640,000 × 5.
        #expect(abs(clock.stamp(timestamp: 2_640_000 * 5) - 1_001.0) < 1e-9)
    }

    @Test func timesNeverRunBackwardsNorPastTheArrival() {
        var clock = SampleClock(sampleRate: 2_000_000)
        #expect(clock.stamp(timestamp: 0) == 0, "no block yet: no time")
        clock.advance(count: 200_000, arrival: 50, dropped: 0)
        let late = clock.stamp(timestamp: 199_999 * 6)
        // A frame that comes out later but started earlier gets the time already given.
        #expect(clock.stamp(timestamp: 0) == late)
        // A timestamp past the latest block (impossible, but hostile) is not in the future.
        #expect(clock.stamp(timestamp: UInt64.max) == 50)
        #expect(late < 50)
    }

    @Test func theRingStampsBlocksAndCountsWhatItDropped() {
        let now = Mutex(10.0)
        let ring = SampleRing(slotCount: 2, slotSize: 64, bytesPerSample: 2, now: { now.withLock { $0 } })
        let block = [UInt8](repeating: 127, count: 64)
        block.withUnsafeBytes { bytes in
            ring.push(bytes)
            now.withLock { $0 = 11 }
            ring.push(bytes)
            ring.push(bytes)  // no free slot: dropped
            ring.push(UnsafeRawBufferPointer(rebasing: bytes[0..<10]))  // dropped too
        }
        var seen: [(Int, Double, Int)] = []
        for _ in 0..<2 { _ = ring.pop { seen.append(($0.bytes.count, $0.arrival, $0.droppedSamples)) } }
        now.withLock { $0 = 12 }
        block.withUnsafeBytes { ring.push($0) }
        _ = ring.pop { seen.append(($0.bytes.count, $0.arrival, $0.droppedSamples)) }
        #expect(seen.map(\.0) == [64, 64, 64])
        #expect(seen.map(\.1) == [10, 11, 12])
        #expect(seen.map(\.2) == [0, 0, 37], "64 + 10 bytes of cu8 lost before the third block")
        #expect(ring.droppedBytes == 74)
    }

    @Test func aStreamStampsFramesOnTheWallClockAndCountsGaps() {
        let signal = RectangularSignal(sampleRate: .twoPointFourMega, sampleCount: 24_000, seed: 3)
        let bits = RectangularSignal.extendedSquitter(address: 0xABC123, payload: 0x1234)
        let bytes = signal.bytes([.init(bits: bits, start: 6_000, amplitude: 40)], format: .cu8)
        let tracker = WiredTracker(receiver: nil, clock: { 4_002 })
        let stream = SampleStream(
            format: .cu8, sampleRate: .twoPointFourMega, options: .init(), into: tracker, label: "test")
        bytes.withUnsafeBytes { raw in
            stream.process(IQBlock(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<24_000]), arrival: 4_000))
            // 2.4 million samples lost (one second), then the rest, whose last sample arrives
            // a second and 5 ms later.
            stream.process(
                IQBlock(
                    bytes: UnsafeRawBufferPointer(rebasing: raw[24_000...]), arrival: 4_001.005,
                    droppedSamples: 2_400_000))
        }
        stream.finish()
        #expect(stream.frames == 1)
        #expect(stream.clock.droppedSamples == 2_400_000)
        #expect(stream.demodulator.statistics.droppedSamples == 2_400_000)
        // The reply starts at sample 6,000 of the first block of 12,000 samples: 6,000
        // samples (2.5 ms) before that block arrived.
        let seen = tracker.snapshot().aircraft.first?.lastSeen ?? 0
        #expect(abs(seen - (4_000 - 6_000 / 2.4e6)) < 1e-3, "seen \(seen)")
    }
}
