/// Lines and fields of the delimited text files the identity data comes in: the lines of
/// every file, and the fields of the standing data's comma-separated files (fields
/// optionally in double quotes, a quote inside doubled). tar1090-db's semicolon-separated
/// aircraft file is cut by `AircraftDatabase` itself, byte by byte.
///
/// It works on bytes, because the files are large (600,000 rows) and come from outside: a
/// line that is not valid UTF-8 or whose quotes do not close gives no fields, and the caller
/// counts it, instead of trapping or losing the rest of the file.
package enum DelimitedText {
    /// The longest line read, in bytes: longer lines are cut off there and refused as
    /// malformed by their parsers (no real row comes close).
    package static let maximumLineBytes = 4096

    /// Calls `body` with each line of `bytes` without its line ending (LF or CRLF), after a
    /// UTF-8 byte-order mark at the start; a last line without an ending counts too.
    package static func forEachLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lineEnd = min(lineEnd, start + maximumLineBytes)
            try body(UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]))
            start = end + 1
        }
    }

    /// The fields of `line` cut at commas, each optionally in double quotes with a quote
    /// inside written twice (the standing data's format); nil when the line is not valid
    /// UTF-8 or a quoted field does not close.
    package static func quotedFields(_ line: UnsafeBufferPointer<UInt8>) -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var index = 0
        var fieldStart = true
        var quoted = false
        while index < line.count {
            let byte = line[index]
            index += 1
            if quoted {
                if byte != 0x22 {
                    field.append(byte)
                } else if index < line.count, line[index] == 0x22 {
                    field.append(0x22)
                    index += 1
                } else {
                    quoted = false
                }
            } else if byte == 0x2C {
                guard let text = String(validating: field, as: UTF8.self) else { return nil }
                fields.append(text)
                field.removeAll(keepingCapacity: true)
                fieldStart = true
                continue
            } else if byte == 0x22, fieldStart {
                quoted = true
            } else {
                field.append(byte)
            }
            fieldStart = false
        }
        guard !quoted, let text = String(validating: field, as: UTF8.self) else { return nil }
        fields.append(text)
        return fields
    }
}
