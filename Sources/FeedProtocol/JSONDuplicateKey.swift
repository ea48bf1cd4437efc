import FoundationEssentials

/// Finds a key that appears twice in one object of a JSON text. `JSONDecoder` keeps one of
/// the two values without a word, so a command such as `{"type":"view","type":"ping"}` would
/// mean whatever the decoder happens to keep; the feed refuses such a command instead.
///
/// The scan expects text that has already parsed as JSON: it follows only strings, objects
/// and arrays, and compares keys after their escapes are resolved (`"a"` and `"\u0061"` are the
/// same key).
package enum JSONDuplicateKey {
    /// The first key found twice in the same object, at any depth; nil when there is none.
    package static func first(in text: some Collection<UInt8>) -> String? {
        let bytes = Array(text)
        // One entry per open container: the keys seen so far when it is an object, nil for
        // an array.
        var open: [Set<String>?] = []
        // Whether the next string in the innermost object is a key.
        var expectingKey = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                open.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                open.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                // After a comma, an object expects its next key; an array its next value.
                expectingKey = open.last.map { $0 != nil } ?? false
            case UInt8(ascii: ":"):
                expectingKey = false
            case UInt8(ascii: "\""):
                let end = closingQuote(in: bytes, from: index)
                // The set is changed in place: a copy per key would make an object of many
                // keys cost the square of their number.
                if expectingKey, let last = open.indices.last, open[last] != nil {
                    let key = unescaped(bytes[index...min(end, bytes.count - 1)])
                    guard open[last]!.insert(key).inserted else { return key }
                    expectingKey = false
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The index of the quote that ends the string opening at `start` (the last index when the
    /// text ends first).
    private static func closingQuote(in bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return bytes.count - 1
    }

    /// A quoted JSON string with its escapes resolved; the raw text when it does not decode.
    private static func unescaped(_ quoted: ArraySlice<UInt8>) -> String {
        (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: quoted, as: UTF8.self)
    }
}
