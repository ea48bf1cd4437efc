import Foundation
import Testing

/// Runs a blocking call (a socket read with a deadline, a sleep) on a thread of its own and
/// awaits its result. Tests must not block the cooperative thread pool: on a two-core machine
/// it has two threads, and a server under test that runs on Swift concurrency would then get
/// no time at all while the test waits for it.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
