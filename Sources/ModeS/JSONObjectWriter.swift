/// Builds one JSON object as text, key by key, in the order written: the decoder's and the
/// feed's output lines are small flat objects, and writing them directly keeps the field
/// order stable and readable and avoids a Foundation round trip per message.
public struct JSONObjectWriter: Sendable {
    private var text = "{"
    private var empty = true

    /// An empty object.
    public init() {}

    /// Adds `"key": "value"` (escaped); nothing when `value` is nil.
    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        startField(key)
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// Adds an integer field; nothing when `value` is nil.
    public mutating func add(_ key: String, _ value: Int?) {
        guard let value else { return }
        startField(key)
        text += String(value)
    }

    /// Adds a boolean field; nothing when `value` is nil.
    public mutating func add(_ key: String, _ value: Bool?) {
        guard let value else { return }
        startField(key)
        text += value ? "true" : "false"
    }

    /// Adds a number rounded to `decimals` places; nothing when `value` is nil or not finite.
    public mutating func add(_ key: String, _ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        startField(key)
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            text += String(Int(rounded))
        } else {
            text += "\(rounded)"
        }
    }

    /// Adds a field whose value is already JSON text (a nested object or array).
    public mutating func addRaw(_ key: String, _ json: String) {
        startField(key)
        text += json
    }

    /// The finished object.
    public var result: String { text + "}" }

    private mutating func startField(_ key: String) {
        if !empty { text += "," }
        empty = false
        text += "\"" + key + "\":"
    }
}
