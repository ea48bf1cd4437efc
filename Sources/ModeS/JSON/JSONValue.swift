import FoundationEssentials

/// A parsed JSON value, for JSON from outside read field by field: the feed's client commands,
/// so that every mistake (a missing field, a string where a number belongs, a field that does
/// not exist) gets its own clear error text, and the answers of route services, where a field
/// of an unexpected type counts as absent instead of failing the whole answer.
public enum JSONValue: Sendable, Equatable, Decodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes whichever kind of value is there.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Parses one JSON text; nil when it is not valid JSON.
    public static func parse(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The fields of an object; nil for any other value.
    public var object: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The text of a string; nil for any other value.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Whether every number inside is finite. JSON has no infinity, but a number too large
    /// for a double (`1e999`) may still come out of a parser as one.
    public var numbersAreFinite: Bool {
        switch self {
        case .number(let value): value.isFinite
        case .array(let values): values.allSatisfy(\.numbersAreFinite)
        case .object(let fields): fields.values.allSatisfy(\.numbersAreFinite)
        case .null, .bool, .string: true
        }
    }

    /// What kind of value this is, for error texts.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
