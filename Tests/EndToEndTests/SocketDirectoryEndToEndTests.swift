import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Without XDG_RUNTIME_DIR the default socket lives in a directory of the user's own, which
    /// the daemon makes and which it and the radar refuse when it could be someone else's.
    @Suite(.tags(.slow)) struct SocketDirectoryEndToEndTests {
        let sample = BinaryRunner.projectRoot.appendingPathComponent("Samples/quiet-sky.cu8").path

        /// A fresh stand-in for /tmp, and the environment that points the default there.
        func temporary() throws -> (root: String, own: String, environment: [String: String]) {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aviator-tmp-\(UUID().uuidString.prefix(8))"
            ).path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            return (root, root + "/aviator-adsb-\(geteuid())", ["XDG_RUNTIME_DIR": "", "TMPDIR": root])
        }

        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }

        @Test func theDefaultSocketIsInADirectoryOfTheUsersOwn() throws {
            let (root, own, environment) = try temporary()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let daemon = try Daemon(
                ["--replay", sample, "--loop", "--throttle", "--receiver", "52,4.4"],
                environment: environment, defaultSocket: true)
            defer { _ = daemon.stop() }
            #expect(daemon.waitFor("radar feed on \(own)/radar.sock", timeout: 30))
            #expect(try mode(own) == 0o700)
            #expect(try mode(own + "/radar.sock") == 0o660)
            let radar = try BinaryRunner.run(
                ["radar", "--once", "--timeout", "20", "--size", "60x20"], environment: environment)
            #expect(radar.status == 0, "\(radar.stderr)")
            #expect(!radar.stdout.isEmpty)
            #expect(daemon.stop(signal: SIGTERM).status == 0)
            #expect(!FileManager.default.fileExists(atPath: own + "/radar.sock"))
        }

        @Test func aDirectoryOthersCouldUseIsRefusedByDaemonAndRadar() throws {
            let (root, own, environment) = try temporary()
            defer { try? FileManager.default.removeItem(atPath: root) }
            try FileManager.default.createDirectory(
                atPath: own, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o777])
            let daemon = try Daemon(["--replay", sample], environment: environment, defaultSocket: true)
            #expect(daemon.waitForExit(timeout: 30) == 1)
            let errors = daemon.stderr.split(separator: "\n").filter { $0.contains("Error:") }
            #expect(
                errors == [
                    "Error: refusing socket directory \(own): mode 777 lets others in; it must be 700 (chmod 700 \(own))"
                ])
            #expect(!FileManager.default.fileExists(atPath: own + "/radar.sock"))
            let radar = try BinaryRunner.run(["radar", "--once", "--timeout", "1"], environment: environment)
            #expect(radar.status == 1)
            #expect(radar.stderr.contains("refusing socket directory \(own): mode 777"))
        }

        @Test func aSymbolicLinkIsRefusedByDaemonAndRadar() throws {
            let (root, own, environment) = try temporary()
            defer { try? FileManager.default.removeItem(atPath: root) }
            try FileManager.default.createDirectory(
                atPath: root + "/elsewhere", withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
            try FileManager.default.createSymbolicLink(atPath: own, withDestinationPath: root + "/elsewhere")
            let daemon = try Daemon(["--replay", sample], environment: environment, defaultSocket: true)
            #expect(daemon.waitForExit(timeout: 30) == 1)
            #expect(daemon.stderr.contains("Error: refusing socket directory \(own): it is a symbolic link"))
            #expect(!FileManager.default.fileExists(atPath: root + "/elsewhere/radar.sock"))
            let radar = try BinaryRunner.run(["radar", "--once", "--timeout", "1"], environment: environment)
            #expect(radar.status == 1)
            #expect(radar.stderr.contains("it is a symbolic link"))
        }
    }
}
