import FeedProtocol
import Foundation
import TestSupport
import Testing

@testable import FeedServer

/// The per-user directory of the default socket: made with mode 700, and refused whenever it
/// could be someone else's.
@Suite struct PrivateSocketDirectoryTests {
    /// A fresh path in /tmp for a directory (not created).
    func freshPath() -> String {
        "/tmp/aviator-private-test-\(UUID().uuidString.prefix(8))"
    }

    func configuration(in directory: String) -> FeedConfiguration {
        FeedConfiguration(
            socketPath: directory + "/radar.sock", radar: RadarConfiguration(frameInterval: 0.1),
            privateDirectory: directory)
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func theServerCreatesItWithMode700() async throws {
        let directory = freshPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await FeedServer.bind(
            configuration: configuration(in: directory), provider: TestSky.provider([]))
        #expect(try mode(directory) == 0o700)
        #expect(try mode(directory + "/radar.sock") == 0o660)
        let client = try await SocketTestClient.connect(path: directory + "/radar.sock")
        #expect(await client.waitFor { !$0.lines.isEmpty })
        await client.close()
        await server.shutdown()
        #expect(!FileManager.default.fileExists(atPath: directory + "/radar.sock"))
        // A second start reuses the directory it made.
        let again = try await FeedServer.bind(
            configuration: configuration(in: directory), provider: TestSky.provider([]))
        await again.shutdown()
    }

    @Test func aDirectoryOthersMayEnterIsRefused() async throws {
        let directory = freshPath()
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        await #expect(throws: FeedError.unsafeDirectory(.openPermissions(directory, mode: UInt32(0o40755)))) {
            _ = try await FeedServer.bind(configuration: configuration(in: directory), provider: TestSky.provider([]))
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/radar.sock"))
        #expect(throws: PrivateDirectory.Problem.self) { try PrivateDirectory.check(directory) }
        let description = PrivateDirectory.Problem.openPermissions(directory, mode: 0o40755).description
        #expect(
            description
                == "refusing socket directory \(directory): mode 755 lets others in; it must be 700 (chmod 700 \(directory))"
        )
    }

    @Test func aSymbolicLinkIsRefusedEvenToAPrivateDirectory() async throws {
        let target = freshPath()
        let link = freshPath()
        try FileManager.default.createDirectory(
            atPath: target, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        defer {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.removeItem(atPath: target)
        }
        await #expect(throws: FeedError.unsafeDirectory(.symbolicLink(link))) {
            _ = try await FeedServer.bind(configuration: configuration(in: link), provider: TestSky.provider([]))
        }
        #expect(throws: PrivateDirectory.Problem.symbolicLink(link)) { try PrivateDirectory.check(link) }
        #expect(!FileManager.default.fileExists(atPath: target + "/radar.sock"))
    }

    @Test func aFileInTheWayIsRefused() async throws {
        let path = freshPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(throws: FeedError.unsafeDirectory(.notADirectory(path))) {
            _ = try await FeedServer.bind(configuration: configuration(in: path), provider: TestSky.provider([]))
        }
    }

    @Test func aMissingDirectoryIsNamedForClients() {
        let path = freshPath()
        #expect(throws: PrivateDirectory.Problem.missing(path)) { try PrivateDirectory.check(path) }
    }

    /// Another user's directory, mode 700 and all: only root can make one to test with.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory to another user"))
    func anotherUsersDirectoryIsRefused() async throws {
        let directory = freshPath()
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let nobody: UInt32 = 65_534
        #expect(chown(directory, nobody, nobody) == 0)
        await #expect(throws: FeedError.unsafeDirectory(.foreignOwner(directory, owner: nobody))) {
            _ = try await FeedServer.bind(configuration: configuration(in: directory), provider: TestSky.provider([]))
        }
        #expect(throws: PrivateDirectory.Problem.foreignOwner(directory, owner: nobody)) {
            try PrivateDirectory.check(directory)
        }
    }
}
