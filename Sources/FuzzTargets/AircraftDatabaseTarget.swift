import Identity

/// The input is an aircraft database file in tar1090-db's format, as `--db-file` reads it
/// (`AircraftDatabase(csv:)`).
///
/// Checks: reading is deterministic; every row is either kept or counted (kept rows plus
/// skipped rows never exceed the lines); every kept row is found again by its address, with
/// every field within its limit and no field empty (empty fields are unknown).
enum AircraftDatabaseTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let bytes = input.bindMemory(to: UInt8.self)
        let database = AircraftDatabase(csv: bytes)
        let again = AircraftDatabase(csv: bytes)
        try check(database.count == again.count && database.problems == again.problems, "two reads differ")
        let lines = bytes.count(where: { $0 == 0x0A }) + 1
        try check(database.count + database.problems.total <= lines, "more rows than lines")
        var line: [UInt8] = []
        for byte in bytes {
            guard byte != 0x0A else {
                try checkLine(line, in: database)
                line.removeAll()
                continue
            }
            line.append(byte)
        }
        try checkLine(line, in: database)
    }

    /// The row of `line`, when its address parses, is in the database with bounded fields.
    private static func checkLine(_ line: [UInt8], in database: AircraftDatabase) throws(FuzzFailure) {
        guard line.count >= 6, let text = String(validating: line.prefix(6), as: UTF8.self),
            let address = UInt32(text, radix: 16), let record = database.record(for: address)
        else { return }
        let limits: [(String?, Int)] = [
            (record.registration, AircraftRecord.Limit.registration), (record.typeCode, AircraftRecord.Limit.typeCode),
            (record.description, AircraftRecord.Limit.description), (record.year, AircraftRecord.Limit.year),
            (record.owner, AircraftRecord.Limit.owner)
        ]
        for (value, limit) in limits {
            guard let value else { continue }
            try check(!value.isEmpty && value.utf8.count <= limit, "field \(value) over \(limit) bytes or empty")
            try check(
                !value.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") },
                "field \(value) with a control character or a double quote")
        }
    }
}
