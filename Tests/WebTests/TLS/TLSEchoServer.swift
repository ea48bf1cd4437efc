import NIOCore
import NIOPosix
import NIOSSL

/// A TLS server on 127.0.0.2 that echoes what it reads, and a client for it that trusts
/// exactly the certificates it is given: the check that credentials work in a real handshake.
///
/// The address is one the test certificates do not name (they name 127.0.0.1): a client that
/// connected to an address named in the certificate would accept it whatever host name it
/// asked for, and the host name check would go untested.
final class TLSEchoServer: Sendable {
    struct Closed: Error {}

    static let host = "127.0.0.2"
    private let channel: Channel

    /// A server with `configuration`, on a free port.
    init(configuration: TLSConfiguration) async throws {
        let context = try NIOSSLContext(configuration: configuration)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try child.pipeline.syncOperations.addHandler(Echo())
                }
            }
            .bind(host: Self.host, port: 0).get()
    }

    /// Connects trusting only `roots`, checks the certificate against `hostname`, sends
    /// `message` and returns what came back; throws when the handshake fails.
    func exchange(_ message: String, trusting roots: [NIOSSLCertificate], hostname: String) async throws -> String {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(roots)
        configuration.certificateVerification = .fullVerification
        configuration.minimumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: configuration)
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: String.self)
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: hostname))
                    try channel.pipeline.syncOperations.addHandler(Collector(message: message, promise: promise))
                }
            }
            .connect(host: Self.host, port: channel.localAddress!.port!).get()
        defer { client.close(promise: nil) }
        return try await promise.futureResult.get()
    }

    func stop() async throws {
        try await channel.close()
    }

    private final class Echo: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.writeAndFlush(data, promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let message: String
        let promise: EventLoopPromise<String>
        var received = ""

        init(message: String, promise: EventLoopPromise<String>) {
            self.message = message
            self.promise = promise
        }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: message)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received += buffer.readString(length: buffer.readableBytes) ?? ""
            if received.utf8.count >= message.utf8.count { promise.succeed(received) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(Closed())
        }
    }
}
