import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A local HTTPS server for `db update`'s tests, on 127.0.0.1 with a self-signed certificate
/// made by `openssl` (the client trusts it with `--ca-file`). Each path answers as the test
/// says: a whole file, one cut short, one that never says its length, a redirect, an error
/// status, or headers and then silence.
final class UpdateServer: Sendable {
    /// How a path is answered.
    enum Answer: Sendable {
        /// `status` with `body` and its length.
        case file(status: Int, body: [UInt8])
        /// 200 announcing `announced` bytes, then `body` (fewer), then the connection closed.
        case cutShort(announced: Int, body: [UInt8])
        /// 200 without a length: `body`, then the connection closed.
        case unannounced([UInt8])
        /// A 302 to `location`.
        case redirect(String)
        /// 200 announcing a megabyte, 1 KB of it, then nothing more.
        case stall
    }

    /// The certificate's PEM file, for `--ca-file`.
    let certificate: String
    /// The port it listens on.
    let port: Int
    private let channel: Channel

    /// A server answering `answers` by path (404 for any other), its certificate and key
    /// written into `folder`.
    init(folder: URL, answers: [String: Answer]) async throws {
        certificate = folder.appendingPathComponent("server-cert.pem").path
        let key = folder.appendingPathComponent("server-key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        let context = try NIOSSLContext(configuration: tls)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try child.pipeline.syncOperations.addHandler(Responder(answers: answers))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Stops listening.
    func stop() async throws { try await channel.close() }

    /// Reads one request head and answers it as `answers` say.
    private final class Responder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private let answers: [String: Answer]
        private var head = ""
        private var answered = false

        init(answers: [String: Answer]) { self.answers = answers }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            head += buffer.readString(length: buffer.readableBytes) ?? ""
            guard !answered, head.contains("\r\n\r\n") else { return }
            answered = true
            let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let answer = answers[path] ?? .file(status: 404, body: Array("not found".utf8))
            switch answer {
            case .file(let status, let body):
                send(context, "HTTP/1.1 \(status) X\r\nContent-Length: \(body.count)\r\n", body, close: true)
            case .cutShort(let announced, let body):
                send(context, "HTTP/1.1 200 OK\r\nContent-Length: \(announced)\r\n", body, close: true)
            case .unannounced(let body):
                send(context, "HTTP/1.1 200 OK\r\n", body, close: true)
            case .redirect(let location):
                send(context, "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n", [], close: true)
            case .stall:
                send(
                    context, "HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n", [UInt8](repeating: 0x1F, count: 1024),
                    close: false)
            }
        }

        /// Writes the head lines, `Connection: close`, the blank line and `body`; closes after when `close`.
        private func send(_ context: ChannelHandlerContext, _ lines: String, _ body: [UInt8], close: Bool) {
            var buffer = context.channel.allocator.buffer(capacity: body.count + 256)
            buffer.writeString(lines + "Connection: close\r\n\r\n")
            buffer.writeBytes(body)
            let written = context.writeAndFlush(wrapOutboundOut(buffer))
            if close {
                let channel = context.channel
                written.whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
}
