import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread of its own for work that blocks or never yields: librtlsdr's USB loop, a
/// demodulator draining its ring, a throttled replay. Such loops must not sit on Swift's
/// cooperative pool (a handful of threads the async code shares) nor on Dispatch's worker
/// pool, and the operating system should show them by name (`ps -T`, `top -H`).
package enum DedicatedThread {
    /// Runs `body` on a new detached thread named `name` (cut to the 15 bytes Linux keeps).
    ///
    /// Should the system refuse a new thread (its limit of threads reached), `body` runs on a
    /// serial Dispatch queue instead: slower to be scheduled, but it runs, so no caller waits
    /// forever for work that never started.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, runWork, context)
        pthread_attr_destroy(&attributes)
        if result != 0 {
            Unmanaged<Work>.fromOpaque(context).release()
            DispatchQueue(label: name).async(execute: body)
        }
    }

    /// Blocks the calling thread for `seconds` (nothing when not positive), resuming the sleep
    /// after a signal interrupts it.
    package static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Names the calling thread as `ps` and `top` show it. Glibc's `pthread_setname_np` is
    /// hidden from Swift (it needs `_GNU_SOURCE`), so this writes the name where that function
    /// would: the thread's `comm` file. A name that cannot be set is only cosmetic.
    fileprivate static func nameThisThread(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        _ = name.withCString { write(file, $0, strlen($0)) }
        close(file)
    }

    /// What a new thread runs, handed to it through `pthread_create`'s context pointer.
    fileprivate final class Work {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            self.body = body
        }
    }
}

/// The start routine of every `DedicatedThread`: names the thread, then runs its work.
private func runWork(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let work = Unmanaged<DedicatedThread.Work>.fromOpaque(context).takeRetainedValue()
    DedicatedThread.nameThisThread(work.name)
    work.body()
    return nil
}
