import Foundation
import ModeS
import TestSupport
import Testing
import Tracking

@testable import Outputs

/// The JSON directory may be writable by someone else: nothing planted in it may make the
/// daemon write anywhere outside it.
@Suite struct JSONDirectoryLinkTests {
    /// A directory for the JSON files and, beside it, a file only the daemon should own.
    struct Setup {
        let root: URL
        let directory: URL
        let victim: URL
        static let victimText = "root-only content\n"

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("json-links-\(UUID().uuidString)")
            directory = root.appendingPathComponent("json")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            victim = root.appendingPathComponent("victim")
            try Data(Self.victimText.utf8).write(to: victim)
        }

        /// Plants a link named `name` in the directory pointing at the victim.
        func plant(_ name: String) throws {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent(name).path,
                withDestinationPath: victim.path)
        }

        var victimText: String { (try? String(contentsOf: victim, encoding: .utf8)) ?? "<unreadable>" }

        /// Whether `name` in the directory is a regular file (not a link).
        func isRegularFile(_ name: String) -> Bool {
            var status = stat()
            guard lstat(directory.appendingPathComponent(name).path, &status) == 0 else { return false }
            return (status.st_mode & S_IFMT) == S_IFREG
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test(arguments: ["aircraft.json.tmp", "receiver.json.tmp", "aircraft.json", "receiver.json"])
    func aPlantedLinkIsNeverFollowed(name: String) async throws {
        let setup = try Setup()
        defer { setup.remove() }
        try setup.plant(name)
        let tracker = WiredTracker(receiver: GeoPoint(latitude: 52, longitude: 4.4))
        let publisher = AircraftJSONPublisher(
            directory: setup.directory.path, tracker: tracker.tracker, pipeline: tracker.pipeline,
            version: "test"
        ) { _ in }
        try publisher.publishOnce()
        try publisher.writer.writeReceiver(version: "test", refreshMilliseconds: 1000, receiver: tracker.receiver)
        #expect(setup.victimText == Setup.victimText)
        #expect(setup.isRegularFile("aircraft.json"))
        #expect(setup.isRegularFile("receiver.json"))
        let aircraft = try Data(contentsOf: setup.directory.appendingPathComponent("aircraft.json"))
        #expect(try JSONSerialization.jsonObject(with: aircraft) is [String: Any])
    }
}
