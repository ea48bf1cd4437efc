import Foundation
import ModeS
import NIOCore
import TestSupport
import Testing

@testable import Outputs

@Suite struct TCPBroadcastServerTests {
    static func waitUntil(timeout: Double = 30, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func everyClientReceivesTheWholeStreamInOrder() async throws {
        let server = try await TCPBroadcastServer.bind(.init(name: "test", host: "127.0.0.1", port: 0))
        #expect(server.port > 0)
        let running = Task { try await server.run() }
        var clients: [SocketTestClient] = []
        for _ in 0..<3 { clients.append(try await SocketTestClient.connect(port: server.port)) }
        #expect(await Self.waitUntil { server.statistics.clientsConnected == 3 })
        // What clients send is read and ignored.
        try await clients[0].send("garbage that must not disturb anything\n")

        var expected: [UInt8] = []
        for index in 0..<3000 {
            let line = Array("*8D4840D6202CC371C32CE05760\(index % 10);\n".utf8)
            expected += line
            server.append(bytes: line)
            if index % 500 == 0 { try await Task.sleep(for: .milliseconds(30)) }
        }
        for client in clients {
            let count = expected.count
            #expect(await client.waitFor { $0.bytes.count >= count })
            #expect(client.bytes == expected)
        }
        #expect(server.statistics.clientsAccepted == 3)
        #expect(server.statistics.clientsDisconnectedSlow == 0)

        running.cancel()
        _ = try? await running.value
        for client in clients { #expect(await client.waitFor { $0.closed }, "clients are closed at shutdown") }
    }

    @Test func aDeadClientIsDisconnectedAndNeverHoldsUpTheOthers() async throws {
        var configuration = TCPBroadcastServer.Configuration(name: "test", host: "127.0.0.1", port: 0)
        // Room for a reader slowed by a busy machine; still far below the 6 MB sent.
        configuration.highWaterMark = 1024 * 1024
        configuration.stallTimeout = 1
        configuration.sendBufferBytes = 8 * 1024
        let server = try await TCPBroadcastServer.bind(configuration)
        let running = Task { try await server.run() }
        defer { running.cancel() }
        let dead = try await SocketTestClient.connect(port: server.port, reading: false)
        let reader = try await SocketTestClient.connect(port: server.port)
        #expect(await Self.waitUntil { server.statistics.clientsConnected == 2 })

        // About 2 MB/s for 3 s: far more than the dead client's buffers hold.
        let chunk = 4096
        let chunks = 1500
        let producer = Task.detached {
            for index in 0..<chunks {
                server.append { bytes in
                    for offset in 0..<chunk { bytes.append(UInt8(truncatingIfNeeded: index &+ offset)) }
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        await producer.value
        let total = chunk * chunks
        #expect(await reader.waitFor(timeout: 30) { $0.bytes.count >= total }, "the reader got everything")
        let received = reader.bytes
        #expect(received.count == total)
        var intact = true
        for index in 0..<min(chunks, received.count / chunk) where intact {
            for offset in stride(from: 0, to: chunk, by: 97)
            where received[index * chunk + offset] != UInt8(truncatingIfNeeded: index &+ offset) {
                intact = false
            }
        }
        #expect(intact, "the reader's stream is complete and in order")

        #expect(await Self.waitUntil { server.statistics.clientsDisconnectedSlow == 1 })
        let statistics = server.statistics
        #expect(statistics.clientsConnected == 1)
        #expect(statistics.bytesSkipped > 0)
        #expect(statistics.framesDropped == 0)
        #expect(dead.bytes.isEmpty)
        await dead.close()
        await reader.close()
    }

    @Test func bytesAreDiscardedWhileNobodyListens() async throws {
        let server = try await TCPBroadcastServer.bind(.init(name: "test", host: "127.0.0.1", port: 0))
        let running = Task { try await server.run() }
        defer { running.cancel() }
        #expect(!server.hasClients)
        server.append(bytes: Array("old\n".utf8))
        try await Task.sleep(for: .milliseconds(100))
        let client = try await SocketTestClient.connect(port: server.port)
        #expect(await Self.waitUntil { server.hasClients })
        server.append(bytes: Array("new\n".utf8))
        #expect(await client.waitFor { $0.bytes.count >= 4 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(String(decoding: client.bytes, as: UTF8.self) == "new\n")
        await client.close()
        #expect(await Self.waitUntil { !server.hasClients })
    }

    @Test func aTakenPortIsOneClearError() async throws {
        let first = try await TCPBroadcastServer.bind(.init(name: "Beast", host: "127.0.0.1", port: 0))
        defer { Task { await first.shutdown() } }
        let error = await #expect(throws: OutputError.self) {
            _ = try await TCPBroadcastServer.bind(.init(name: "Beast", host: "127.0.0.1", port: first.port))
        }
        #expect(error == .addressInUse(output: "Beast", host: "127.0.0.1", port: first.port))
        #expect(
            error?.description
                == "cannot listen on 127.0.0.1:\(first.port) for the Beast output: the address is already in use")
    }

    @Test func anAddressThatCannotBeBoundIsOneClearError() async throws {
        let error = await #expect(throws: OutputError.self) {
            _ = try await TCPBroadcastServer.bind(.init(name: "SBS", host: "192.0.2.1", port: 0))
        }
        let description = try #require(error?.description)
        #expect(description.hasPrefix("cannot listen on 192.0.2.1:0 for the SBS output: "))
        #expect(!description.contains("\n"))
    }
}
