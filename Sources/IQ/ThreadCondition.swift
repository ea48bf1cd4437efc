#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex with a condition variable, for threads that must sleep until another thread hands
/// them something (the demodulator waiting for the USB thread's next block in `SampleRing`).
/// The POSIX primitives live at fixed addresses of their own, as they require.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the mutex.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the mutex until woken (or spuriously: callers wait in a loop on their
    /// predicate), then holds it again. Only with the mutex held.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// `body`'s result, computed with the mutex held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
