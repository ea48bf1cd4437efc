import ModeS
import Support

/// One field of a feed object as it travels: its key, how its value is written (rounded to
/// what it means, `null` when unknown) and how it is read back. A type lists its fields once,
/// in wire order, and both its writer and its parser walk that list, so each field's key,
/// rounding and place on the wire are written in one place.
package struct FeedField<Object>: Sendable {
    /// The JSON key.
    package let key: String
    /// Adds the field of an object to the writer.
    private let writeField: @Sendable (Object, inout JSONObjectWriter) -> Void
    /// Reads the field into an object; absent or `null` leaves it unknown.
    private let readField: @Sendable (inout Object, JSONFields) throws(FeedParseError) -> Void

    private init(
        _ key: String, write: @escaping @Sendable (Object, inout JSONObjectWriter) -> Void,
        read: @escaping @Sendable (inout Object, JSONFields) throws(FeedParseError) -> Void
    ) {
        self.key = key
        writeField = write
        readField = read
    }

    /// Adds the field of `object` to `writer`.
    package func write(_ object: Object, to writer: inout JSONObjectWriter) { writeField(object, &writer) }

    /// Reads the field from `fields` into `object`.
    package func read(into object: inout Object, from fields: JSONFields) throws(FeedParseError) {
        try readField(&object, fields)
    }

    /// A number rounded to `decimals` places.
    package static func number(
        _ key: String, _ path: WritableKeyPath<Object, Double?> & Sendable, decimals: Int
    ) -> FeedField {
        FeedField(key) { object, w in
            w.add(key, object[keyPath: path], decimals: decimals)
        } read: { object, fields throws(FeedParseError) in
            object[keyPath: path] = try fields.number(key)
        }
    }

    /// A direction in [0, 360) rounded to `decimals` places (one that rounds to 360 is 0).
    package static func angle(
        _ key: String, _ path: WritableKeyPath<Object, Double?> & Sendable, decimals: Int
    ) -> FeedField {
        FeedField(key) { object, w in
            w.addAngle(key, object[keyPath: path], decimals: decimals)
        } read: { object, fields throws(FeedParseError) in
            object[keyPath: path] = try fields.number(key)
        }
    }

    /// A string.
    package static func text(_ key: String, _ path: WritableKeyPath<Object, String?> & Sendable) -> FeedField {
        FeedField(key) { object, w in
            w.add(key, object[keyPath: path])
        } read: { object, fields throws(FeedParseError) in
            object[keyPath: path] = try fields.string(key)
        }
    }

    /// A string that is always there; the parser requires it before reading the rest.
    package static func text(_ key: String, _ path: WritableKeyPath<Object, String> & Sendable) -> FeedField {
        FeedField(key) { object, w in
            w.add(key, object[keyPath: path])
        } read: { object, fields throws(FeedParseError) in
            if let value = try fields.string(key) { object[keyPath: path] = value }
        }
    }

    /// A boolean that may be unknown.
    package static func flag(_ key: String, _ path: WritableKeyPath<Object, Bool?> & Sendable) -> FeedField {
        FeedField(key) { object, w in
            w.add(key, object[keyPath: path])
        } read: { object, fields throws(FeedParseError) in
            object[keyPath: path] = try fields.bool(key)
        }
    }

    /// A boolean that is always known; read as false when absent or `null`.
    package static func flag(_ key: String, _ path: WritableKeyPath<Object, Bool> & Sendable) -> FeedField {
        FeedField(key) { object, w in
            w.add(key, object[keyPath: path])
        } read: { object, fields throws(FeedParseError) in
            object[keyPath: path] = try fields.bool(key) ?? false
        }
    }

    /// A nested object that is always there, written by `json` and read by `parse`; its
    /// owner's parser checks that it is present before reading the fields.
    package static func object<Value>(
        _ key: String, _ path: WritableKeyPath<Object, Value> & Sendable,
        json: @escaping @Sendable (Value) -> String,
        parse: @escaping @Sendable (JSONFields) throws(FeedParseError) -> Value
    ) -> FeedField {
        FeedField(key) { object, w in
            w.addRaw(key, json(object[keyPath: path]))
        } read: { object, fields throws(FeedParseError) in
            if let nested = try fields.object(key) { object[keyPath: path] = try parse(nested) }
        }
    }

    /// A nested object that may be unknown, written by `json` and read by `parse`.
    package static func object<Value>(
        _ key: String, _ path: WritableKeyPath<Object, Value?> & Sendable,
        json: @escaping @Sendable (Value) -> String,
        parse: @escaping @Sendable (JSONFields) throws(FeedParseError) -> Value
    ) -> FeedField {
        FeedField(key) { object, w in
            w.addRaw(key, object[keyPath: path].map(json) ?? "null")
        } read: { object, fields throws(FeedParseError) in
            object[keyPath: path] = try fields.object(key).map { fields throws(FeedParseError) in try parse(fields) }
        }
    }
}

extension Array {
    /// The object written with these fields, in order: one JSON object, without a newline.
    package func json<Object>(of object: Object) -> String where Element == FeedField<Object> {
        var w = JSONObjectWriter(nullForMissing: true)
        for field in self { field.write(object, to: &w) }
        return w.result
    }

    /// Reads these fields, in order, from `fields` into `object`.
    package func read<Object>(into object: inout Object, from fields: JSONFields) throws(FeedParseError)
    where Element == FeedField<Object> {
        for field in self { try field.read(into: &object, from: fields) }
    }
}
