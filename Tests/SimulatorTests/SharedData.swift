import Foundation
import Testing

/// The project's read-only reference data in `../shared` (real messages and recordings).
/// Missing data fails the test under CI=true and skips it (with a note) elsewhere.
enum SharedData {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The text of `relative` under ../shared, or nil (after recording why) when missing.
    static func text(_ relative: String) -> String? {
        let url = root.appendingPathComponent(relative)
        if let data = try? Data(contentsOf: url) {
            var text = String(decoding: data, as: UTF8.self)
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            return text
        }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("missing shared data \(url.path)")
        } else {
            print("skipping: \(url.path) is not available")
        }
        return nil
    }
}
