import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization
import Testing

@testable import Web

/// A client that finishes the TLS handshake and then ends its side of TCP without close_notify,
/// as port scanners and health checkers do. The server used to answer with close_notify, wait
/// five seconds for the client's and keep the connection's TLS state for good; now it closes
/// the socket at once and says nothing more.
@Suite struct HangUpTests {
    static let subject = CertificateSubject.host("radar-pi", addresses: [IPAddress("192.168.1.20")!])

    @Test func aClientThatHangsUpAfterTheHandshakeIsClosedAtOnceWithoutATLSShutdown() async throws {
        let folder = try TLSTestFolder()
        defer { folder.remove() }
        let credentials = try TLSCredentials(try CertificateStore(directory: folder.path).pair(for: Self.subject))
        let server = try await WebTestServer.start(tls: credentials)
        for _ in 0..<3 {
            let ending = try await HangingUpClient.run(port: server.port)
            #expect(ending.bytesAfterFIN == 0, "the server began a TLS shutdown instead of closing")
            #expect(ending.closed, "the server kept the connection open after the client's FIN")
        }
        await server.stop()
    }
}

/// Connects over TLS, waits for the handshake, sends a bare FIN from beneath the TLS layer and
/// watches the raw socket until the server closes it (or five seconds pass).
enum HangingUpClient {
    struct Ending {
        /// Bytes the server sent after the FIN (close_notify is 31 in TLS 1.2).
        var bytesAfterFIN: Int
        /// Whether the server closed within the wait.
        var closed: Bool
    }

    static func run(port: Int) async throws -> Ending {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        configuration.maximumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: configuration)
        let raw = RawSide()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(raw)
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: nil))
                    try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(raw: raw))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let closed = await raw.waitForClose(seconds: 5)
        channel.close(promise: nil)
        return Ending(bytesAfterFIN: raw.bytesAfterFIN, closed: closed)
    }

    /// Sits between the socket and TLS: counts what arrives after the FIN and sees the close.
    /// Its context is touched only on the channel's loop; the test reads the figures through the lock.
    final class RawSide: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        private var context: ChannelHandlerContext?
        private let state = Mutex<(finSent: Bool, bytes: Int, closed: Bool)>((false, 0, false))

        var bytesAfterFIN: Int { state.withLock { $0.bytes } }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        /// Half-closes the socket directly, so no close_notify goes out.
        func sendFIN() {
            guard let context else { return }
            state.withLock { $0.finSent = true }
            context.close(mode: .output, promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let count = unwrapInboundIn(data).readableBytes
            let afterFIN = state.withLock { $0.finSent }
            if afterFIN {
                state.withLock { $0.bytes += count }
            } else {
                context.fireChannelRead(data)
            }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? ChannelEvent, event == .inputClosed, state.withLock({ $0.finSent }) {
                state.withLock { $0.closed = true }
                return
            }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            if state.withLock({ $0.finSent }) { state.withLock { $0.closed = true } }
            context.fireChannelInactive()
        }

        func waitForClose(seconds: Double) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if state.withLock({ $0.closed }) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }

    /// Sends the FIN once the handshake is done.
    final class HandshakeWatcher: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let raw: RawSide

        init(raw: RawSide) {
            self.raw = raw
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event { raw.sendFIN() }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {}
    }
}
