import Foundation
import Testing

/// A trait for suites whose tests compute for seconds without awaiting anything (the
/// demodulator over synthetic recordings): their tests run one at a time on a queue of their
/// own instead of on the cooperative pool. Swift Testing starts every test at once on that
/// pool, which has one thread per core; on a two-core machine two such tests would hold it
/// whole, and the tests of servers elsewhere in the run, waiting for a task of theirs to be
/// scheduled, would time out. (A thread for each test would not do either: a hundred of them
/// at once leave the pool's two threads a hundredth of the machine.)
package struct ComputeBoundTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope only passes through: each of its tests gets this scope too,
        // and the executor matters where a test's body runs.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ComputeQueueExecutor.shared) { try await function() }
    }
}

extension Trait where Self == ComputeBoundTrait {
    /// Runs the suite's tests one at a time, off the cooperative pool (`ComputeBoundTrait`).
    package static var computeBound: Self { Self() }
}

/// A task executor on one serial dispatch queue, whose thread is not one of the cooperative
/// pool's: each job (a test's run up to its next suspension) runs there, one after another.
/// The tests it runs never block waiting for each other, so one at a time cannot deadlock.
final class ComputeQueueExecutor: TaskExecutor {
    static let shared = ComputeQueueExecutor()
    private let queue = DispatchQueue(label: "aviator-adsb.tests.compute")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
