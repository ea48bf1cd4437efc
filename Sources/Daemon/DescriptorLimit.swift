#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open file descriptors. Every client of the feed and the TCP outputs
/// holds one, so the daemon raises its soft limit to the hard limit at start (as far as the
/// system allows without privileges) and says so when its client limits could still use them up.
package enum DescriptorLimit {
    /// Descriptors the daemon needs besides its clients: its event loops, listening sockets,
    /// the recording or dongle, aircraft.json files being replaced.
    package static let reserve = 64

    /// Raises the soft limit to the hard one; the soft limit now in force.
    package static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
