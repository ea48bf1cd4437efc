import Foundation

/// A new empty folder under the system's temporary directory, removed by `remove()`; the
/// certificate tests keep their state directories there.
struct TLSTestFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
    }

    /// `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` with `mode` and returns its path.
    @discardableResult
    func write(_ text: String, to name: String, mode: Int = 0o600) throws -> String {
        let target = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
        return target
    }

    /// The permission bits of `name`.
    func mode(_ name: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: file(name))[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
