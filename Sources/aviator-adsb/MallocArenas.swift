#if canImport(Glibc)
    import Glibc
#endif

/// Caps glibc's allocator at one arena, before the daemon starts its threads.
///
/// glibc gives each thread that allocates an arena of its own, up to eight per core. The
/// daemon's work hops between many threads (the event loops, Swift's cooperative pool on
/// dispatch's worker threads, librtlsdr's and libmosquitto's own), so an arena freed into by
/// one thread keeps fragments another filled, and each arena keeps its own high-water mark.
/// Under the soak's hostile load (TLS connections opened and dropped many times a second
/// beside a flood of made-up receivers) the resident memory rose by about 20 MB, then swung
/// by several MB, with every live allocation bounded: 76-82 MB after 14 minutes, against 76 MB
/// with two arenas and 64 MB, flat from the fourth minute, with one. The identity store's
/// load, on a thread of its own, left 9 MB in that thread's arena the same way.
///
/// The cost is a lock the threads share: glibc's per-thread caches serve most small
/// allocations without it, and nothing allocates per sample or per message on the hot path.
/// `MALLOC_ARENA_MAX` in the environment still decides when it is set.
enum MallocArenas {
    /// The arenas the daemon's allocator may use.
    static let limit: Int32 = 1

    /// `M_ARENA_MAX` of glibc's `<malloc.h>`, which the Glibc module does not bring.
    static let arenaMaximum: Int32 = -8

    /// Applies `limit` unless the environment chose a number. `mallopt` is looked up at run
    /// time (it is glibc's alone, and its header is not in the Glibc module); without it
    /// nothing changes.
    static func cap() {
        #if canImport(Glibc)
            guard getenv("MALLOC_ARENA_MAX") == nil,
                let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
            else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, limit)
        #endif
    }
}
