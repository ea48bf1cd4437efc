import Foundation
import Testing

/// Access to the shared real-world data beside the project (`../shared`). Tests that need it
/// fail when it is missing under CI (CI=true), and skip with a message elsewhere.
package enum SharedData {
    /// The shared folder.
    package static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The file at `relativePath` under ../shared, or nil (after failing the test under CI, or
    /// printing why it is skipped elsewhere) when it is not there.
    package static func file(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        let url = root.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        missing("shared data missing: \(url.path)", sourceLocation: sourceLocation)
        return nil
    }

    /// Reports that something a test needs is not there: a failure under CI (CI=true), which
    /// must have everything, and a printed reason for the skip elsewhere.
    package static func missing(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            print("skipped: \(message)")
        }
    }

    /// The lines of a shared text file (BOM and carriage returns removed), or nil as `file`.
    package static func lines(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String]?
    {
        guard let url = file(relativePath, sourceLocation: sourceLocation) else { return nil }
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.replacingOccurrences(of: "\u{FEFF}", with: "").replacingOccurrences(of: "\r", with: "")
            .split(separator: "\n").map(String.init)
    }

    /// The text of a shared file (a byte-order mark removed), or nil as `file`.
    package static func text(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let url = file(relativePath, sourceLocation: sourceLocation),
            let data = try? Data(contentsOf: url)
        else { return nil }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }
}
