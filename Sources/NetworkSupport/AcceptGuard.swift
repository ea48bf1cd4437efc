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
/// failed. Out of descriptors (or kernel memory), accepting pauses for a second, and the
/// `paused` closure counts and logs it; other errors (a client that gave up while queued)
/// are retried at once. Shared by the feed server, the TCP outputs and the Beast listener.
package enum AcceptGuard {
    /// Descriptors kept free for everything that is not a client: files being replaced, the
    /// thread pool's look at its workers, outgoing connections, a log line to a new file.
    package static let headroom = 16

    /// Adds the headroom check and NIO's `AcceptBackoffHandler` to a server channel's
    /// pipeline, calling `paused` with each error that pauses accepting; for
    /// `serverChannelInitializer`.
    package static func install(
        on channel: any Channel,
        paused: @escaping @Sendable (IOError) -> Void
    ) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(HeadroomHandler(headroom: headroom))
            try channel.pipeline.syncOperations.addHandler(
                AcceptBackoffHandler(
                    shouldForwardIOErrorCaught: false,
                    backoffProvider: { error in
                        guard pauses(error) else { return nil }
                        paused(error)
                        return .seconds(1)
                    }))
        }
    }

    /// Whether accepting pauses after `error`: out of descriptors or kernel memory.
    package static func pauses(_ error: IOError) -> Bool {
        [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
    }

    /// Whether fewer than `headroom` descriptors are free under the soft limit now. The kernel
    /// hands out the lowest free number, so a probe opened now numbered `n` means 0…n−1 are
    /// all in use; a probe that cannot be opened at all means none is free.
    package static func isShort(headroom: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0,
            limit.rlim_cur < rlim_t(Int32.max)
        else { return false }
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
