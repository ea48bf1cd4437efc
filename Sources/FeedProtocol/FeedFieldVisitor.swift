import Support

/// Goes through the fields of a feed object in wire order, each field given once with its key,
/// its rounding and its storage: `FeedFieldWriter` reads each value into one JSON object,
/// `FeedFieldReader` sets each from a parsed one. A type lists its fields once, in a function
/// that calls its visitor for each (`FeedAircraft.visit`), so a field's key, rounding and place
/// on the wire are written in one place, and the writer's calls are direct (no key-path lookups
/// on the hot path of the feed).
protocol FeedFieldVisitor {
    /// `Never` for a writer, `FeedParseError` for a reader.
    associatedtype Failure: Error
    /// A number rounded to `decimals` places.
    mutating func number(_ key: String, _ value: inout Double?, decimals: Int) throws(Failure)
    /// A direction in [0, 360) rounded to `decimals` places (one that rounds to 360 is 0).
    mutating func angle(_ key: String, _ value: inout Double?, decimals: Int) throws(Failure)
    /// A string that may be unknown.
    mutating func text(_ key: String, _ value: inout String?) throws(Failure)
    /// A string that is always there (its owner's parser requires it before the rest).
    mutating func text(_ key: String, _ value: inout String) throws(Failure)
    /// A boolean that may be unknown.
    mutating func flag(_ key: String, _ value: inout Bool?) throws(Failure)
    /// A boolean that is always known; read as false when absent or `null`.
    mutating func flag(_ key: String, _ value: inout Bool) throws(Failure)
    /// A nested object that may be unknown.
    mutating func object<Value: FeedObject>(_ key: String, _ value: inout Value?) throws(Failure)
    /// A nested object that is always there (its owner's parser checks that it is present).
    mutating func object<Value: FeedObject>(_ key: String, _ value: inout Value) throws(Failure)
    /// A list of nested objects, at most `limit` (empty when absent or `null`).
    mutating func objects<Value: FeedObject>(_ key: String, _ value: inout [Value], limit: Int) throws(Failure)
}

/// A feed object nested in another: written as its own JSON object, read from one.
protocol FeedObject {
    /// Reads the object.
    init(_ fields: JSONFields) throws(FeedParseError)
    /// Every field, in wire order: the one list its writer and parser follow.
    mutating func visit<V: FeedFieldVisitor>(_ v: inout V) throws(V.Failure)
}

extension FeedObject {
    /// The object as JSON, every field present (`null` when unknown).
    var json: String {
        var copy = self
        var writer = FeedFieldWriter()
        copy.visit(&writer)
        return writer.result
    }
}

/// Writes the fields it visits into one JSON object, every field present (`null` when
/// unknown).
struct FeedFieldWriter: FeedFieldVisitor {
    private var w = JSONObjectWriter(nullForMissing: true)

    /// The object so far, closed.
    var result: String { w.result }

    mutating func number(_ key: String, _ value: inout Double?, decimals: Int) {
        w.add(key, value, decimals: decimals)
    }

    mutating func angle(_ key: String, _ value: inout Double?, decimals: Int) {
        w.addAngle(key, value, decimals: decimals)
    }

    mutating func text(_ key: String, _ value: inout String?) { w.add(key, value) }

    mutating func text(_ key: String, _ value: inout String) { w.add(key, value) }

    mutating func flag(_ key: String, _ value: inout Bool?) { w.add(key, value) }

    mutating func flag(_ key: String, _ value: inout Bool) { w.add(key, value) }

    mutating func object<Value: FeedObject>(_ key: String, _ value: inout Value?) {
        w.addRaw(key, value?.json ?? "null")
    }

    mutating func object<Value: FeedObject>(_ key: String, _ value: inout Value) { w.addRaw(key, value.json) }

    mutating func objects<Value: FeedObject>(_ key: String, _ value: inout [Value], limit: Int) {
        w.addRaw(key, "[" + value.prefix(limit).map(\.json).joined(separator: ",") + "]")
    }
}

/// Sets the fields it visits from a parsed JSON object; absent or `null` values are unknown,
/// values of the wrong kind are errors naming the field.
struct FeedFieldReader: FeedFieldVisitor {
    /// The parsed object.
    let fields: JSONFields

    mutating func number(_ key: String, _ value: inout Double?, decimals: Int) throws(FeedParseError) {
        value = try fields.number(key)
    }

    mutating func angle(_ key: String, _ value: inout Double?, decimals: Int) throws(FeedParseError) {
        value = try fields.number(key)
    }

    mutating func text(_ key: String, _ value: inout String?) throws(FeedParseError) {
        value = try fields.string(key)
    }

    mutating func text(_ key: String, _ value: inout String) throws(FeedParseError) {
        if let text = try fields.string(key) { value = text }
    }

    mutating func flag(_ key: String, _ value: inout Bool?) throws(FeedParseError) {
        value = try fields.bool(key)
    }

    mutating func flag(_ key: String, _ value: inout Bool) throws(FeedParseError) {
        value = try fields.bool(key) ?? false
    }

    mutating func object<Value: FeedObject>(_ key: String, _ value: inout Value?) throws(FeedParseError) {
        value = try fields.object(key).map { fields throws(FeedParseError) in try Value(fields) }
    }

    mutating func object<Value: FeedObject>(_ key: String, _ value: inout Value) throws(FeedParseError) {
        if let nested = try fields.object(key) { value = try Value(nested) }
    }

    mutating func objects<Value: FeedObject>(
        _ key: String, _ value: inout [Value], limit: Int
    ) throws(FeedParseError) {
        value = []
        for nested in try fields.objects(key, limit: limit) ?? [] { value.append(try Value(nested)) }
    }
}
