import Foundation
import IQ
import Synchronization
import Testing

@testable import Receivers

/// The threads that carry blocking loops, and the ring they hand samples over with.
@Suite struct DedicatedThreadTests {
    /// The names of this process's threads, as `ps -T` shows them.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }

    @Test(.timeLimit(.minutes(1)))
    func aThreadRunsItsWorkUnderItsNameCutTo15Bytes() async {
        let release = Mutex(false)
        let names: [String] = await withCheckedContinuation { continuation in
            DedicatedThread.start(name: "test-thread-with-a-long-name") {
                continuation.resume(returning: Self.threadNames())
                while !release.withLock({ $0 }) { DedicatedThread.sleep(seconds: 0.01) }
            }
        }
        release.withLock { $0 = true }
        #expect(names.contains("test-thread-wit"), "\(names)")
    }

    @Test func sleepWaitsAtLeastTheTimeAsked() {
        let start = ContinuousClock.now
        DedicatedThread.sleep(seconds: 0.05)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        let again = ContinuousClock.now
        DedicatedThread.sleep(seconds: -1)
        DedicatedThread.sleep(seconds: .nan)
        #expect(ContinuousClock.now - again < .seconds(1))
    }

    /// A consumer thread asleep in `pop` wakes for each block a producer pushes, and for the
    /// close that ends the hand-over; nothing is lost or reordered on the way (the ring has
    /// room for every block, so none may be dropped however late the consumer runs).
    @Test(.timeLimit(.minutes(1)))
    func theRingHandsBlocksToAThreadWaitingForThem() async {
        let ring = SampleRing(slotCount: 128, slotSize: 8, bytesPerSample: 2)
        let received: [UInt8] = await withCheckedContinuation { continuation in
            DedicatedThread.start(name: "ring-consumer") {
                var firstBytes: [UInt8] = []
                while ring.pop({ firstBytes.append($0.bytes[0]) }) {}
                continuation.resume(returning: firstBytes)
            }
            for value in 0..<100 {
                [UInt8](repeating: UInt8(value), count: 8).withUnsafeBytes { ring.push($0) }
                // Pauses leave the ring empty now and then: the consumer must wait and be woken.
                if value % 10 == 0 { Thread.sleep(forTimeInterval: 0.005) }
            }
            ring.close()
        }
        #expect(received == Array(0..<100))
        #expect(ring.droppedBytes == 0)
    }
}
