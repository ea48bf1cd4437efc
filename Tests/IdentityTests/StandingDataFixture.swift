import Foundation
import Identity
import TestSupport

/// The standing data of ../shared unpacked once into a temporary folder, and the identity
/// store built from it by `IdentityStoreBuilder` and read back by `IdentityStoreFile`: what
/// `aviator-adsb db build` writes and the daemon loads.
enum StandingDataFixture {
    /// The archive under ../shared.
    static let archive = "standing-data/vrs-standing-data-2026-08-19.tar.xz"

    /// The unpacked folder, the store's text and the store; nil when unpacking failed.
    static let built: (root: URL, text: String, store: IdentityStore)? = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("identity-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "xJf", SharedData.root.appendingPathComponent(archive).path, "-C", root.path]
        guard (try? tar.run()) != nil else { return nil }
        tar.waitUntilExit()
        guard tar.terminationStatus == 0 else { return nil }
        var builder = IdentityStoreBuilder(root: root)
        guard let text = try? builder.build() else { return nil }
        let bytes = Array(text.utf8)
        guard let store = bytes.withUnsafeBufferPointer({ try? IdentityStoreFile.parse($0) }) else { return nil }
        return (root, text, store)
    }()

    /// The lines of table `name` of the store's text.
    static func table(_ name: String, in text: String) -> [Substring] {
        guard let start = text.range(of: "@\(name)\n") else { return [] }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n@")?.lowerBound ?? rest.endIndex
        return rest[..<end].split(separator: "\n")
    }
}
