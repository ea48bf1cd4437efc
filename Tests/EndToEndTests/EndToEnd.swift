import Testing

/// The end-to-end suites, one at a time. Each test waits for child processes (the binary,
/// dump1090, tmux) on a thread of Swift's cooperative pool, which has one thread per core:
/// run side by side, these waits would leave the other test targets' asynchronous servers no
/// thread to run on. One at a time, they hold at most one.
@Suite(.serialized) enum EndToEnd {}
