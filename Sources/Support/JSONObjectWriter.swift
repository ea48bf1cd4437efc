/// Builds one JSON object as text, key by key, in the order written. The decoder's output lines
/// and the radar feed are small flat objects; writing them directly keeps the field order
/// stable and readable and avoids a Foundation round trip per message.
///
/// Two styles: by default a field whose value is nil is left out (the decoder's output);
/// with `nullForMissing` it is written as `null`, so that every object of a kind carries the
/// same keys (the radar feed's stable schema).
package struct JSONObjectWriter: Sendable {
    private var text: String
    private var empty = true
    private let nullForMissing: Bool

    /// An empty object; `nullForMissing` writes nil values as `null` instead of leaving them out.
    package init(nullForMissing: Bool = false) {
        text = "{"
        text.reserveCapacity(512)
        self.nullForMissing = nullForMissing
    }

    /// Adds a string field (escaped).
    package mutating func add(_ key: String, _ value: String?) {
        guard let value else { return addNull(key) }
        startField(key)
        Self.appendQuoted(value, to: &text)
    }

    /// Adds an integer field.
    package mutating func add(_ key: String, _ value: Int?) {
        guard let value else { return addNull(key) }
        startField(key)
        text += String(value)
    }

    /// Adds an unsigned integer field.
    package mutating func add(_ key: String, _ value: UInt64) {
        startField(key)
        text += String(value)
    }

    /// Adds a boolean field.
    package mutating func add(_ key: String, _ value: Bool?) {
        guard let value else { return addNull(key) }
        startField(key)
        text += value ? "true" : "false"
    }

    /// Adds a number rounded to `decimals` places; a value that is not finite counts as
    /// missing (JSON has no NaN or infinity).
    package mutating func add(_ key: String, _ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return addNull(key) }
        startField(key)
        Self.appendNumber(value, decimals: decimals, to: &text)
    }

    /// Adds a direction in [0, 360) rounded to `decimals` places: a value just below 360 that
    /// rounds up to 360 is written as 0, so the range holds after rounding.
    package mutating func addAngle(_ key: String, _ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return addNull(key) }
        let rounded = Self.round(value, decimals: decimals)
        startField(key)
        Self.appendNumber(rounded >= 360 ? rounded - 360 : rounded, decimals: decimals, to: &text)
    }

    /// Adds a field whose value is already JSON text (a nested object or array).
    package mutating func addRaw(_ key: String, _ json: String) {
        startField(key)
        text += json
    }

    /// The finished object, without a line break.
    package var result: String { text + "}" }

    private mutating func addNull(_ key: String) {
        guard nullForMissing else { return }
        startField(key)
        text += "null"
    }

    private mutating func startField(_ key: String) {
        if !empty { text += "," }
        empty = false
        text += "\""
        text += key
        text += "\":"
    }

    /// `value` rounded to `decimals` places. Beyond 1e15 a double has no fractional digits to
    /// round, and scaling it could overflow to infinity (which JSON cannot hold): it is kept.
    private static func round(_ value: Double, decimals: Int) -> Double {
        guard abs(value) < 1e15 else { return value }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// Appends `value` rounded to `decimals` places in the shortest form that reads back as
    /// the rounded value: whole numbers without a fraction, never "-0".
    static func appendNumber(_ value: Double, decimals: Int, to text: inout String) {
        var rounded = round(value, decimals: decimals)
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
