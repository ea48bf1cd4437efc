import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// What a listening socket of the daemon (the feed socket, the TCP outputs) puts in front of
/// NIO's acceptor, so that clients can never take the process's last file descriptors.
///
/// Running out is not only a problem for accept: every second the Swift runtime's thread pool
/// (libdispatch) opens `/proc/<tid>/stat` of its workers while work is queued, and aborts the
/// process when that open fails. So a connection accepted while fewer than `headroom`
/// descriptors are free is closed at once and reported as `EMFILE`, exactly as if accept had
/// failed; the `backoff` closure then decides the pause (and counts and logs it), and the
/// listening socket tries again after it. Shared by the feed server and the TCP outputs, which
/// both depend on this module.
public enum AcceptGuard {
    /// Descriptors kept free for everything that is not a client: files being replaced, the
    /// thread pool's look at its workers, outgoing connections, a log line to a new file.
    public static let headroom = 16

    /// Adds the headroom check and NIO's `AcceptBackoffHandler` (driven by `backoff`) to a
    /// server channel's pipeline; for `serverChannelInitializer`.
    public static func install(on channel: any Channel,
                               backoff: @escaping @Sendable (IOError) -> TimeAmount?) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(HeadroomHandler(headroom: headroom))
            try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(
                shouldForwardIOErrorCaught: false, backoffProvider: backoff))
        }
    }

    /// Whether fewer than `headroom` descriptors are free under the soft limit now. The kernel
    /// hands out the lowest free number, so a probe opened now numbered `n` means 0…n−1 are
    /// all in use; a probe that cannot be opened at all means none is free.
    public static func isShort(headroom: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0,
              limit.rlim_cur < rlim_t(Int32.max) else { return false }
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe >= 0 else { return true }
        close(probe)
        return Int(probe) >= Int(limit.rlim_cur) - headroom
    }

    /// Closes each accepted connection that would leave too few descriptors and raises
    /// `EMFILE` for the backoff handler after it.
    final class HeadroomHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        let headroom: Int

        init(headroom: Int) { self.headroom = headroom }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard AcceptGuard.isShort(headroom: headroom) else {
                context.fireChannelRead(data)
                return
            }
            unwrapInboundIn(data).close(promise: nil)
            context.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept"))
        }
    }
}
