/// Builds one line of the feed: a JSON object whose fields are written in a fixed order and
/// where an unknown value is written as `null` rather than left out, so clients see the same
/// keys on every object.
public struct FeedJSONWriter: Sendable {
    private var text: String
    private var empty = true

    /// An empty object.
    public init() {
        text = "{"
        text.reserveCapacity(512)
    }

    /// Adds a string field (escaped), or null.
    public mutating func add(_ key: String, _ value: String?) {
        startField(key)
        guard let value else { text += "null"; return }
        Self.appendQuoted(value, to: &text)
    }

    /// Adds an integer field, or null.
    public mutating func add(_ key: String, _ value: Int?) {
        startField(key)
        guard let value else { text += "null"; return }
        text += String(value)
    }

    /// Adds an unsigned integer field.
    public mutating func add(_ key: String, _ value: UInt64) {
        startField(key)
        text += String(value)
    }

    /// Adds a boolean field, or null.
    public mutating func add(_ key: String, _ value: Bool?) {
        startField(key)
        guard let value else { text += "null"; return }
        text += value ? "true" : "false"
    }

    /// Adds a number rounded to `decimals` places, or null when it is nil or not finite (JSON
    /// has no NaN or infinity).
    public mutating func add(_ key: String, _ value: Double?, decimals: Int) {
        startField(key)
        guard let value, value.isFinite else { text += "null"; return }
        Self.appendNumber(value, decimals: decimals, to: &text)
    }

    /// Adds a direction in [0, 360) rounded to `decimals` places, or null: a value just below
    /// 360 that rounds up to 360 is written as 0, so the range holds after rounding.
    public mutating func addAngle(_ key: String, _ value: Double?, decimals: Int) {
        startField(key)
        guard let value, value.isFinite else { text += "null"; return }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        Self.appendNumber(rounded >= 360 ? rounded - 360 : rounded, decimals: decimals, to: &text)
    }

    /// Adds a field whose value is already JSON text (an object or array).
    public mutating func addRaw(_ key: String, _ json: String) {
        startField(key)
        text += json
    }

    /// The finished object, without a line break.
    public var result: String { text + "}" }

    private mutating func startField(_ key: String) {
        if !empty { text += "," }
        empty = false
        text += "\""
        text += key
        text += "\":"
    }

    /// Appends `value` rounded to `decimals` places in the shortest form that reads back as
    /// the rounded value: whole numbers without a fraction, never "-0".
    static func appendNumber(_ value: Double, decimals: Int, to text: inout String) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        var rounded = (value * scale).rounded() / scale
        if rounded == 0 { rounded = 0 }  // turns −0 into 0
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            text += String(Int(rounded))
        } else {
            text += rounded.description
        }
    }

    /// Appends `value` as a JSON string literal.
    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let s where s.value < 0x20 || s.value == 0x2028 || s.value == 0x2029:
                // Control characters must be escaped; the two Unicode line separators are
                // escaped too so that no client splits a line inside a string.
                let hex = String(s.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
