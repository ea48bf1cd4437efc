import ModeS

/// The fields of one JSON object read with their expected types: every mistake (a string
/// where a number belongs, a number that is not finite) becomes a `FeedParseError` naming the
/// field and where it was (`place`, e.g. "hello" or "aircraft 4840d6"; a client's command
/// has no place: its errors go back to the client that sent it).
package struct JSONFields: Sendable {
    /// The object's fields.
    package let values: [String: JSONValue]
    /// Where the object sits, for error messages; nil for a client's command.
    package let place: String?

    /// The fields of `values`, found at `place`.
    package init(_ values: [String: JSONValue], place: String?) {
        self.values = values
        self.place = place
    }

    /// The same fields described as being at another place.
    package func named(_ place: String) -> JSONFields { JSONFields(values, place: place) }

    /// The start of an error message about the field `key`.
    private func field(_ key: String) -> String {
        guard let place else { return key }
        return "\(place): \"\(key)\""
    }

    /// A finite number, or nil when the field is null or absent.
    package func number(_ key: String) throws(FeedParseError) -> Double? {
        switch values[key] {
        case nil, .null?: return nil
        case .number(let value)? where value.isFinite: return value
        case let other?: throw FeedParseError("\(field(key)) must be a number, got \(other.kindName)")
        }
    }

    /// A finite number that must be there.
    package func requiredNumber(_ key: String) throws(FeedParseError) -> Double {
        guard let value = try number(key) else {
            throw FeedParseError("\(place ?? "command") has no \"\(key)\" number")
        }
        return value
    }

    /// A whole number that must be there and fit an `Int` (a sequence or version number).
    package func requiredInteger(_ key: String) throws(FeedParseError) -> Int {
        let value = try requiredNumber(key)
        guard let whole = Int(exactly: value) else {
            throw FeedParseError("\(field(key)) must be a whole number, got \(value)")
        }
        return whole
    }

    /// A string, or nil when the field is null or absent.
    package func string(_ key: String) throws(FeedParseError) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw FeedParseError("\(field(key)) must be a string, got \(other.kindName)")
        }
    }

    /// A boolean, or nil when the field is null or absent.
    package func bool(_ key: String) throws(FeedParseError) -> Bool? {
        switch values[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw FeedParseError("\(field(key)) must be true or false, got \(other.kindName)")
        }
    }

    /// An array of nested objects (at most `limit`), or nil when the field is null or absent.
    package func objects(_ key: String, limit: Int) throws(FeedParseError) -> [JSONFields]? {
        switch values[key] {
        case nil, .null?: return nil
        case .array(let elements)?:
            guard elements.count <= limit else {
                throw FeedParseError("\(field(key)) holds \(elements.count) entries, more than \(limit)")
            }
            var result: [JSONFields] = []
            for (index, element) in elements.enumerated() {
                guard case .object(let value) = element else {
                    throw FeedParseError("\(field(key)) entry \(index) must be an object, got \(element.kindName)")
                }
                result.append(JSONFields(value, place: (place.map { "\($0) " } ?? "") + "\(key) \(index)"))
            }
            return result
        case let other?: throw FeedParseError("\(field(key)) must be an array, got \(other.kindName)")
        }
    }

    /// A nested object, or nil when the field is null or absent.
    package func object(_ key: String) throws(FeedParseError) -> JSONFields? {
        switch values[key] {
        case nil, .null?: return nil
        case .object(let value)?: return JSONFields(value, place: place.map { "\($0) \(key)" } ?? key)
        case let other?: throw FeedParseError("\(field(key)) must be an object, got \(other.kindName)")
        }
    }
}

/// Why a feed line could not be read; the message names the line's problem.
package struct FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence for people.
    package var message: String

    /// An error with its message.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
