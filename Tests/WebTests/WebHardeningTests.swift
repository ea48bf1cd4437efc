import AsyncHTTPClient
import Foundation
import NIOCore
import TestSupport
import Testing

@testable import Web

/// The second round of hardening: heads that do not parse, hosts the server does not know,
/// the details of HTTP and of the WebSocket handshake. Each case is sent over a raw socket
/// and must get a clear answer and a closed connection within a bound, never a hang.
@Suite(.serialized) struct WebHardeningTests {
    /// What a raw exchange came to: the text the server sent, whether it closed the
    /// connection, and how long that took.
    struct Exchange {
        var text: String
        var closed: Bool
        var seconds: Double
    }

    /// Sends `bytes` on a fresh connection and reads until the server closes it or `timeout`
    /// passes.
    static func exchange(_ port: Int, _ bytes: [UInt8], timeout: Double = 4) async throws -> Exchange {
        let connection = try RawConnection(port: port)
        let started = Date()
        connection.send(bytes)
        let result = await connection.readAll(timeout: timeout)
        return Exchange(
            text: String(decoding: result.bytes, as: UTF8.self), closed: result.closed,
            seconds: Date().timeIntervalSince(started))
    }

    static func exchange(_ port: Int, _ text: String, timeout: Double = 4) async throws -> Exchange {
        try await exchange(port, Array(text.utf8), timeout: timeout)
    }

    /// The heads of the issue: each is complete (it ends in a blank line) and does not parse.
    static let malformedHeads: [(String, String)] = [
        ("lower-case method", "get / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("bad version", "GET / HTTP/1.x\r\nHost: 127.0.0.1\r\n\r\n"),
        ("header without a colon", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\n\r\n"),
        (
            "Content-Length with Transfer-Encoding",
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
    ]

    /// Heads over the size limits.
    static let oversizeHeads: [(String, String)] = [
        (
            "a header over 80 KB",
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "a", count: 90_000) + "\r\n\r\n"
        ),
        (
            "very many headers",
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + String(repeating: "X-N: 1\r\n", count: 1100) + "\r\n"
        )
    ]

    @Test func malformedHeadsAreAnsweredClosedAndCounted() async throws {
        // Two connections at most: held-open bad connections would lock everyone out.
        let server = try await WebTestServer.start { $0.maxConnections = 2 }
        defer { Task { await server.stop() } }
        for (name, head) in Self.malformedHeads {
            let answer = try await Self.exchange(server.port, head)
            #expect(answer.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name): \(answer.text.prefix(40))")
            #expect(answer.text.lowercased().contains("connection: close\r\n"), "\(name)")
            #expect(answer.closed, "\(name): closed")
            #expect(answer.seconds < 2, "\(name): within 2 s, took \(answer.seconds)")
        }
        for (name, head) in Self.oversizeHeads {
            let answer = try await Self.exchange(server.port, head)
            #expect(answer.text.hasPrefix("HTTP/1.1 431 "), "\(name): \(answer.text.prefix(40))")
            #expect(answer.closed, "\(name): closed")
            #expect(answer.seconds < 2, "\(name): within 2 s, took \(answer.seconds)")
        }
        // Nobody is locked out.
        let page = try await Self.exchange(
            server.port, "GET /data/receiver.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(page.text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(server.web.statistics().summary.contains("malformed_requests 6"), "\(server.web.statistics().summary)")
        #expect(server.web.statistics().slowRequests == 0)
    }

    @Test func unknownHostsGetNoData() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let port = server.port
        let rebound = try await Self.exchange(
            port, "GET /data/receiver.json HTTP/1.1\r\nHost: attacker.example:\(port)\r\n\r\n")
        #expect(rebound.text.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"), "\(rebound.text.prefix(40))")
        #expect(!rebound.text.contains("\"version\""), "no data")
        #expect(rebound.closed)
        var upgrade = "GET /feed HTTP/1.1\r\nHost: attacker.example:\(port)\r\nUpgrade: websocket\r\n"
        upgrade += "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        upgrade += "Origin: http://attacker.example:\(port)\r\n\r\n"
        let feed = try await Self.exchange(port, upgrade)
        #expect(feed.text.hasPrefix("HTTP/1.1 421 "), "\(feed.text.prefix(40))")
        #expect(!feed.text.contains("hello"), "no feed")
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "localhost."] {
            let known = try await Self.exchange(
                port, "GET /data/receiver.json HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(known.text.hasPrefix("HTTP/1.1 200 OK"), "\(host): \(known.text.prefix(40))")
        }
        let name = CertificateSubject.currentHostName().lowercased()
        let named = try await Self.exchange(
            port, "GET / HTTP/1.1\r\nHost: \(name):\(port)\r\nConnection: close\r\n\r\n")
        #expect(named.text.hasPrefix("HTTP/1.1 200 OK"), "the host's own name \(name)")
        #expect(server.web.statistics().summary.contains("unknown_hosts 2"), "\(server.web.statistics().summary)")
    }

    @Test func headAnswersTheLengthOfGet() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let get = try await Self.exchange(server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let head = try await Self.exchange(
            server.port, "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let length = try #require(WebApp.assets["/index.html"]).body.readableBytes
        #expect(get.text.lowercased().contains("content-length: \(length)\r\n"))
        #expect(head.text.lowercased().contains("content-length: \(length)\r\n"), "\(head.text)")
        #expect(head.text.hasSuffix("\r\n\r\n"), "no body")
    }

    @Test func http10WithoutKeepAliveIsClosedAfterTheAnswer() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let answer = try await Self.exchange(server.port, "GET /data/receiver.json HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(answer.text.contains("\"version\""))
        #expect(answer.closed, "closed after the answer")
        #expect(answer.seconds < 2, "took \(answer.seconds)")
    }

    @Test func weakValidatorsMatchAndEncodingsHaveTheirOwnETag() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let asset = try #require(WebApp.assets.values.first { $0.gzipped != nil })
        let plain = try await WebServerTests.get(server.base + asset.path)
        let packed = try await WebServerTests.get(server.base + asset.path, headers: [("Accept-Encoding", "gzip")])
        let plainTag = try #require(plain.headers["ETag"].first)
        let packedTag = try #require(packed.headers["ETag"].first)
        #expect(plainTag != packedTag, "two representations, two strong ETags")
        let weak = try await WebServerTests.get(server.base + asset.path, headers: [("If-None-Match", "W/" + plainTag)])
        #expect(weak.status == 304)
        let crossed = try await WebServerTests.get(server.base + asset.path, headers: [("If-None-Match", packedTag)])
        #expect(crossed.status == 200, "the gzip tag does not validate the plain body")
        let both = try await WebServerTests.get(
            server.base + asset.path, headers: [("If-None-Match", packedTag), ("Accept-Encoding", "gzip")])
        #expect(both.status == 304)
    }

    /// A handshake for `/feed` with these changes to the usual one.
    static func handshake(method: String = "GET", key: String? = "dGhlIHNhbXBsZSBub25jZQ==", version: String = "13")
        -> String
    {
        var text = "\(method) /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        if let key { text += "Sec-WebSocket-Key: \(key)\r\n" }
        return text + "Sec-WebSocket-Version: \(version)\r\n\r\n"
    }

    @Test func badHandshakesGet400() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let cases = [
            ("POST", Self.handshake(method: "POST")), ("a key of !!", Self.handshake(key: "!!")),
            ("no key", Self.handshake(key: nil)), ("version 8", Self.handshake(version: "8"))
        ]
        for (name, head) in cases {
            let answer = try await Self.exchange(server.port, head)
            #expect(answer.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name): \(answer.text.prefix(40))")
            #expect(answer.closed, "\(name)")
        }
        #expect(server.web.statistics().summary.contains("bad_handshakes 4"), "\(server.web.statistics().summary)")
    }

    /// Opens the feed and waits for its hello.
    static func openFeed(_ port: Int) async throws -> RawConnection {
        let connection = try RawConnection(port: port)
        #expect(await connection.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        #expect(await connection.read(until: "hello", timeout: 10) != nil)
        return connection
    }

    /// Whether `bytes` hold a close frame from the server with `code`.
    static func holdsClose(_ bytes: [UInt8], code: UInt16) -> Bool {
        let needle: [UInt8] = [0x88, UInt8(code >> 8), UInt8(code & 0xFF)]
        for start in 0..<max(0, bytes.count - 3) where bytes[start] == 0x88 {
            // Server frames are unmasked: the length byte, then the code.
            if bytes[start + 1] >= 2, start + 3 < bytes.count, bytes[start + 2] == needle[1],
                bytes[start + 3] == needle[2]
            {
                return true
            }
        }
        return false
    }

    @Test func unmaskedFramesAndInvalidTextAreClosedWithTheirCodes() async throws {
        let server = try await WebTestServer.start(frameInterval: 5)
        defer { Task { await server.stop() } }
        let unmasked = try await Self.openFeed(server.port)
        unmasked.send(RawConnection.frame(opcode: 0x1, payload: Array("{}".utf8), masked: false))
        let first = await unmasked.readAll(timeout: 6)
        #expect(first.closed)
        #expect(Self.holdsClose(first.bytes, code: 1002), "close 1002")

        let invalid = try await Self.openFeed(server.port)
        invalid.send(RawConnection.frame(opcode: 0x1, payload: [0x7B, 0xC3, 0x28, 0x7D]))
        let second = await invalid.readAll(timeout: 6)
        #expect(second.closed)
        #expect(Self.holdsClose(second.bytes, code: 1007), "close 1007")
        #expect(!String(decoding: second.bytes, as: UTF8.self).contains("\"type\":\"error\""), "no JSON error")
        #expect(await server.feed.statistics().commandsRejected == 0)
        let summary = server.web.statistics().summary
        #expect(summary.contains("malformed_frames 1, invalid_text 1"), "\(summary)")
    }
}
extension WebHardeningTests {
    @Test func namesOfHttpHostAreServedAndHostValuesAreRead() async throws {
        let server = try await WebTestServer.start { $0.allowedHosts = ["Radar.Example"] }
        defer { Task { await server.stop() } }
        let named = try await Self.exchange(
            server.port, "GET /data/receiver.json HTTP/1.1\r\nHost: radar.example:8443\r\nConnection: close\r\n\r\n")
        #expect(named.text.hasPrefix("HTTP/1.1 200 OK"), "\(named.text.prefix(40))")
        let twoHosts = try await Self.exchange(
            server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\n\r\n")
        #expect(twoHosts.text.hasPrefix("HTTP/1.1 400 "), "two Host headers")
        let noHost = try await Self.exchange(server.port, "GET / HTTP/1.1\r\n\r\n")
        #expect(noHost.text.hasPrefix("HTTP/1.1 400 "), "HTTP/1.1 without Host")
        #expect(AllowedHosts.name(inHost: "[::1]:80") == "::1")
        #expect(AllowedHosts.name(inHost: "Radar.Example.:8080") == "radar.example")
        #expect(AllowedHosts.name(inHost: "radar.example:80x") == nil)
        let hosts = AllowedHosts(
            listening: "0.0.0.0", extra: [],
            subject: .host("pi.lan", addresses: [IPAddress("192.0.2.7")!]))
        #expect(hosts.allows("pi") && hosts.allows("pi.local:8080") && hosts.allows("192.0.2.7"))
        #expect(!hosts.allows("0.0.0.0") && !hosts.allows("attacker.example"))
    }
}
