import FoundationEssentials
import ModeS

/// Checks on the JSON text the project writes: whatever the input, a line must be one valid
/// JSON object that any reader accepts, and no number in it may be infinite or NaN (JSON has
/// neither, and a writer that let one through would print `inf`).
enum JSONCheck {
    /// Throws unless `text` (one line, a trailing newline allowed) parses with `JSONDecoder`
    /// as an object whose numbers are all finite. `what` names the text in the failure.
    static func object(_ text: String, _ what: String) throws(FuzzFailure) {
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        try check(!body.contains("\n"), "\(what): a line break inside the line: \(text)")
        let parsed: JSONValue
        do {
            parsed = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
        } catch {
            throw FuzzFailure("\(what): not valid JSON (\(error)): \(text)")
        }
        try check(parsed.object != nil, "\(what): not a JSON object: \(text)")
        try check(parsed.numbersAreFinite, "\(what): a number that is not finite: \(text)")
    }
}
