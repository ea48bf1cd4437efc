import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

@testable import Web

/// The web server as a browser and as hostile clients see it: pages and data over HTTP, the
/// feed over WebSocket, and every kind of refusal counted without disturbing other clients.
@Suite(.serialized) struct WebServerTests {
    static let logger = Logger(label: "web-test-client")
    /// A client that leaves compressed bodies as they came.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(decompression: .disabled))

    /// GET with optional headers; status, headers and body.
    static func get(_ url: String, headers: [(String, String)] = [], method: HTTPMethod = .GET) async throws
        -> (status: UInt, headers: HTTPHeaders, body: ByteBuffer)
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        // Decompression stays off, so a test sees the bytes the server sent.
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 10 << 20)
        return (response.status.code, response.headers, body)
    }

    @Test func servesTheAppWithSecurityHeadersAndRevalidation() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let page = try await Self.get(server.base + "/")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"].first == "text/html; charset=utf-8")
        let policy = try #require(page.headers["Content-Security-Policy"].first)
        #expect(policy.contains("default-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("http"), "the policy names no other origin")
        #expect(page.headers["X-Content-Type-Options"].first == "nosniff")
        // The sky view may ask for the camera, from this origin only; nothing may ask for the microphone.
        let permissions = try #require(page.headers["Permissions-Policy"].first)
        #expect(permissions.contains("camera=(self)") && permissions.contains("microphone=()"))
        #expect(String(buffer: page.body).contains("<html") || String(buffer: page.body).contains("<!doctype html"))
        let etag = try #require(page.headers["ETag"].first)
        let again = try await Self.get(server.base + "/", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.readableBytes == 0)
        let head = try await Self.get(server.base + "/", method: .HEAD)
        #expect(head.status == 200)
        #expect(head.body.readableBytes == 0)
        // Every embedded file is served with its type.
        for name in WebApp.fileNames {
            let asset = try await Self.get(server.base + "/" + name)
            #expect(asset.status == 200, "\(name)")
            #expect(asset.headers["Content-Type"].first == EmbeddedAsset.contentType(of: name))
        }
    }

    @Test func compressesTextThatPaysAndOnlyWhenAsked() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let compressible = WebApp.assets.values.filter { $0.gzipped != nil }
        #expect(!compressible.isEmpty, "the app has text worth compressing")
        for asset in compressible {
            let packed = try await Self.get(server.base + asset.path, headers: [("Accept-Encoding", "gzip, br")])
            #expect(packed.headers["Content-Encoding"].first == "gzip")
            #expect(packed.body == asset.gzipped)
            #expect(packed.body.readableBytes < asset.body.readableBytes)
            #expect(packed.headers["Vary"].first == "Accept-Encoding")
            let plain = try await Self.get(server.base + asset.path, headers: [("Accept-Encoding", "gzip;q=0")])
            #expect(plain.headers["Content-Encoding"].isEmpty)
            #expect(plain.body == asset.body)
        }
    }

    @Test func servesDataWithoutCORSUnlessAnOriginIsNamed() async throws {
        let closed = try await WebTestServer.start()
        let aircraft = try await Self.get(closed.base + "/data/aircraft.json")
        #expect(aircraft.status == 200)
        #expect(aircraft.headers["Content-Type"].first == "application/json")
        #expect(String(buffer: aircraft.body) == FixedDocuments().aircraft)
        #expect(aircraft.headers["Access-Control-Allow-Origin"].isEmpty)
        let receiver = try await Self.get(closed.base + "/data/receiver.json")
        #expect(String(buffer: receiver.body) == FixedDocuments().receiver)
        await closed.stop()

        let open = try await WebTestServer.start { $0.corsOrigin = "http://tar1090.local" }
        let shared = try await Self.get(open.base + "/data/aircraft.json")
        #expect(shared.headers["Access-Control-Allow-Origin"].first == "http://tar1090.local")
        await open.stop()
    }

    @Test func refusesWhatItDoesNotServeAndCountsIt() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        #expect(try await Self.get(server.base + "/nothing-here").status == 404)
        #expect(try await Self.get(server.base + "/", method: .POST).status == 405)
        let plain = try await Self.get(server.base + "/feed")
        #expect(plain.status == 426)
        #expect(String(buffer: plain.body).contains("WebSocket"))
        let connection = try RawConnection(port: server.port)
        #expect(await connection.upgrade(origin: "https://evil.example")?.hasPrefix("HTTP/1.1 101") == true)
        let refused = await connection.readAll(timeout: 10)
        #expect(refused.closed)
        let said = String(decoding: refused.bytes, as: UTF8.self)
        #expect(said.contains("does not serve pages of other sites"))
        #expect(!said.contains("hello"), "nothing of the feed")
        let counts = server.web.statistics()
        #expect(counts.notFound == 1)
        #expect(counts.badMethods == 1)
        #expect(counts.feedWithoutUpgrade == 1)
        #expect(counts.foreignOrigins == 1)
        #expect(counts.summary.contains("foreign_origins 1, feed_without_upgrade 1, bad_methods 1, not_found 1"))
    }

    /// Connects a WebSocket client, sends `commands` once the hello has arrived, and
    /// collects text messages until `enough` says so (or 10 s pass).
    static func collect(
        _ url: String, commands: [String] = [], timeout: Double = 10,
        enough: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        let box = MessageBox()
        // Frames of a busy sky are far larger than the client's default frame limit.
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 8 << 20), logger: logger) {
            inbound, outbound, _ in
            let deadline = ContinuousClock.now + .seconds(timeout)
            for try await message in inbound.messages(maxSize: 4 << 20) {
                guard case .text(let text) = message else { continue }
                let all = box.append(text)
                if all.count == 1 { for command in commands { try await outbound.write(.text(command)) } }
                if enough(all) || ContinuousClock.now > deadline { break }
            }
        }
        return box.messages
    }

    @Test func feedOverWebSocketGreetsSendsFramesAndTakesViews() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let observer = #"{"type":"view","range_km":80,"observer":{"lat":52.1,"lon":4.6,"alt_m":30}}"#
        let messages = try await Self.collect("ws://127.0.0.1:\(server.port)/feed", commands: [observer]) { all in
            all.filter { $0.contains("\"type\":\"frame\"") && $0.contains("\"range_km\":80") }.count >= 2
        }
        let first = try #require(messages.first)
        #expect(first.contains("\"type\":\"hello\""))
        #expect(!first.hasSuffix("\n"), "one JSON object per message, no line ending")
        let ack = try #require(messages.first { $0.contains("\"type\":\"view\"") })
        #expect(ack.contains("\"observer\":{\"lat\":52.1,\"lon\":4.6,\"alt_m\":30"))
        #expect(messages.filter { $0.contains("\"type\":\"frame\"") }.count >= 2)
        for message in messages {
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(message.utf8))) != nil,
                "valid JSON: \(message.prefix(80))")
        }
        #expect(server.web.statistics().webSockets == 1)
    }

    @Test func binaryAndBadCommandsGetErrorsAndTheSessionGoesOn() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        let head = try #require(await connection.upgrade())
        #expect(head.hasPrefix("HTTP/1.1 101"))
        connection.send(RawConnection.frame(opcode: 0x2, payload: [1, 2, 3]))
        connection.send(RawConnection.frame(opcode: 0x1, payload: Array(#"{"type":"view","heading_deg":400}"#.utf8)))
        let text = try #require(await connection.read(until: "heading_deg must be between", timeout: 10))
        #expect(text.contains("binary message"))
        // A message within the WebSocket limit but over the socket's command limit.
        connection.send(
            RawConnection.frame(
                opcode: 0x1,
                payload: Array(#"{"type":"view","x":""#.utf8)
                    + [UInt8](repeating: 0x61, count: 5000) + Array(#""}"#.utf8)))
        #expect(await connection.read(until: "command longer than 4096 bytes", timeout: 10) != nil)
        #expect(await connection.read(until: "\"type\":\"frame\"", timeout: 10) != nil, "frames keep coming")
        #expect(server.web.statistics().binaryMessages == 1)
        #expect(await server.feed.statistics().commandsRejected == 3)
    }

    @Test func oversizeMessagesAndBrokenFramesCloseOnlyThatClient() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        let bystander = Task { try await Self.collect("ws://127.0.0.1:\(server.port)/feed") { $0.count >= 12 } }

        // Each waits for its hello: the session is then fully set up, counters included.
        let big = try RawConnection(port: server.port)
        #expect(await big.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        #expect(await big.read(until: "hello", timeout: 10) != nil)
        big.send(RawConnection.frame(opcode: 0x1, payload: [UInt8](repeating: 0x20, count: 70_000)))
        #expect(await big.readAll(timeout: 10).closed)

        let fragmented = try RawConnection(port: server.port)
        #expect(await fragmented.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        #expect(await fragmented.read(until: "hello", timeout: 10) != nil)
        let piece = [UInt8](repeating: 0x20, count: 30_000)
        fragmented.send(RawConnection.frame(opcode: 0x1, payload: piece, fin: false))
        for _ in 0..<2 { fragmented.send(RawConnection.frame(opcode: 0x0, payload: piece, fin: false)) }
        #expect(await fragmented.readAll(timeout: 10).closed)

        let broken = try RawConnection(port: server.port)
        #expect(await broken.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        #expect(await broken.read(until: "hello", timeout: 10) != nil)
        // A ping split into fragments: control frames may not be.
        broken.send(RawConnection.frame(opcode: 0x9, payload: [1, 2], fin: false))
        #expect(await broken.readAll(timeout: 10).closed)

        let frames = try await bystander.value.filter { $0.contains("\"type\":\"frame\"") }
        #expect(frames.count >= 11, "the other client kept getting frames")
        let counts = server.web.statistics()
        #expect(counts.oversizeMessages == 2)
        #expect(counts.malformedFrames == 1)
    }

    @Test func aPortInUseIsOneClearLine() async throws {
        let server = try await WebTestServer.start()
        defer { Task { await server.stop() } }
        var configuration = WebConfiguration(port: server.port, logger: Logger(label: "test"))
        configuration.host = "127.0.0.1"
        let second = WebServer(
            configuration: configuration, feed: server.feed, documents: FixedDocuments(),
            metrics: nil)
        await #expect {
            try await second.run()
        } throws: { error in
            "\(error)" == "web: cannot serve on 127.0.0.1:\(server.port): the address is already in use"
        }
    }

    @Test func slowRequestHeadsAreClosedAndCounted() async throws {
        let server = try await WebTestServer.start { $0.requestHeadTimeout = 0.5 }
        defer { Task { await server.stop() } }
        let slow = try RawConnection(port: server.port)
        slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let started = Date()
        let result = await slow.readAll(timeout: 10)
        #expect(result.closed)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(result.bytes.isEmpty, "no answer to half a request")
        // A quick client on a kept-alive connection is not cut off between requests.
        let quick = try RawConnection(port: server.port)
        quick.send("GET /data/receiver.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await quick.read(until: "\"version\"", timeout: 10) != nil)
        try await Task.sleep(for: .seconds(1))
        quick.send("GET /data/receiver.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await quick.read(until: "\"version\"", timeout: 10) != nil)
        #expect(server.web.statistics().slowRequests == 1)
    }

    @Test func aFullFeedRefusesWebSocketsWithAReason() async throws {
        let server = try await WebTestServer.start(maxClients: 2)
        defer { Task { await server.stop() } }
        let first = try RawConnection(port: server.port)
        #expect(await first.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        let second = try RawConnection(port: server.port)
        #expect(await second.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        #expect(await second.read(until: "hello", timeout: 10) != nil)
        let third = try RawConnection(port: server.port)
        #expect(await third.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
        let refused = await third.readAll(timeout: 10)
        #expect(refused.closed)
        let text = String(decoding: refused.bytes, as: UTF8.self)
        #expect(text.contains("maximum of 2 clients"))
        #expect(server.web.statistics().webSocketsRefused == 1)
        #expect(await server.feed.statistics().clientsRefused == 1)
    }

    @Test func aWebSocketThatStopsReadingAndBreaksTheProtocolIsClosed() async throws {
        // The hub would wait two minutes before letting a stalled client go: the protocol
        // error alone must close it, though no close frame can get through its full socket.
        let server = try await WebTestServer.start(aircraft: TestSky.crowd(400), frameInterval: 0.1, stallTimeout: 120)
        defer { Task { await server.stop() } }
        let sleeper = try RawConnection(port: server.port, receiveBuffer: 4096)
        sleeper.sendUpgrade()
        var deadline = Date().addingTimeInterval(30)
        while await server.feed.statistics().framesDropped == 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(await server.feed.statistics().framesDropped > 0, "the sleeper's socket is full")
        #expect(sleeper.serverSideState == "01")
        // A text message begun, then another text message where its continuation belongs.
        sleeper.send(RawConnection.frame(opcode: 0x1, payload: Array("{".utf8), fin: false))
        sleeper.send(RawConnection.frame(opcode: 0x1, payload: Array("{}".utf8)))
        deadline = Date().addingTimeInterval(20)
        while sleeper.serverSideState == "01", Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(sleeper.serverSideState != "01", "the server closed its end")
        #expect(await server.feed.statistics().clientsStalled == 0, "closed for its frames, not for stalling")
    }

    @Test func aWebSocketThatNeverReadsIsLetGo() async throws {
        // 400 aircraft make frames of tens of KB; a client that reads nothing fills its
        // socket buffers within a few frames and then stalls.
        let server = try await WebTestServer.start(aircraft: TestSky.crowd(400), frameInterval: 0.1, stallTimeout: 1)
        defer { Task { await server.stop() } }
        let sleeper = try RawConnection(port: server.port, receiveBuffer: 4096)
        sleeper.sendUpgrade()
        // The reader goes on until it has had three frames after the sleeper was let go, so it
        // is judged on being served throughout, not on how fast a loaded machine makes frames.
        let letGo = NIOLockedValueBox(false)
        let framesAtLetGo = NIOLockedValueBox<Int?>(nil)
        let reader = Task {
            try await Self.collect("ws://127.0.0.1:\(server.port)/feed", timeout: 60) { all in
                guard letGo.withLockedValue({ $0 }) else { return false }
                let frames = all.filter { $0.contains("\"type\":\"frame\"") }.count
                let atLetGo = framesAtLetGo.withLockedValue { mark in
                    if mark == nil { mark = frames }
                    return mark!
                }
                return frames >= atLetGo + 3
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while await server.feed.statistics().clientsStalled == 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(await server.feed.statistics().clientsStalled == 1)
        letGo.withLockedValue { $0 = true }
        #expect(await sleeper.readAll(timeout: 10).closed, "its connection is closed")
        let frames = try await reader.value.filter { $0.contains("\"type\":\"frame\"") }
        let atLetGo = try #require(
            framesAtLetGo.withLockedValue { $0 }, "the reader was still connected when the sleeper was let go")
        #expect(frames.count >= atLetGo + 3, "the reading client was served throughout")
        #expect(await server.feed.statistics().clientsStalled == 1, "only the sleeper was let go")
    }
}

/// Messages gathered by a WebSocket handler.
final class MessageBox: Sendable {
    private let lock = NIOLockedValueBox<[String]>([])
    func append(_ message: String) -> [String] {
        lock.withLockedValue {
            $0.append(message)
            return $0
        }
    }
    var messages: [String] { lock.withLockedValue { $0 } }
}
