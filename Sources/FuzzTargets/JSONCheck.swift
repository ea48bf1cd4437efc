import Foundation

/// Checks on the JSON text the project writes: whatever the input, a line must be one valid
/// JSON object that any reader accepts, and no number in it may be infinite or NaN (JSON has
/// neither, and a writer that let one through would print `inf`).
enum JSONCheck {
    /// Throws unless `text` (one line, a trailing newline allowed) parses with
    /// `JSONSerialization` as an object whose numbers are all finite. `what` names the text
    /// in the failure.
    static func object(_ text: String, _ what: String) throws(FuzzFailure) {
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        try check(!body.contains("\n"), "\(what): a line break inside the line: \(text)")
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(body.utf8), options: [])
        } catch {
            throw FuzzFailure("\(what): not valid JSON (\(error)): \(text)")
        }
        try check(parsed is [String: Any], "\(what): not a JSON object: \(text)")
        try check(allNumbersFinite(parsed), "\(what): a number that is not finite: \(text)")
    }

    /// Whether every number in a `JSONSerialization` value is finite.
    static func allNumbersFinite(_ value: Any) -> Bool {
        switch value {
        case let object as [String: Any]: return object.values.allSatisfy(allNumbersFinite)
        case let array as [Any]: return array.allSatisfy(allNumbersFinite)
        case let number as NSNumber: return number.doubleValue.isFinite
        default: return true
        }
    }
}
