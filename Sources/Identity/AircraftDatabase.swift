/// The aircraft of a database by ICAO address, held compactly: tar1090-db's `aircraft.csv`
/// (about 600,000 rows, `--db-file`) or the standing data's own aircraft table.
///
/// Each row costs four 32-bit words and two bytes: its address (sorted, for a binary search),
/// where its registration and owner are in one pool of bytes, and where its profile (type,
/// description and year, shared by many airframes) is. Values that repeat (profiles, owners)
/// are written to the pool once. A 600,000-row file takes about 15 MB this way, where one
/// Swift object per row would take several times that.
package struct AircraftDatabase: Sendable {
    /// The most rows a database holds; rows past it are counted and left out.
    package static let maximumRows = 2_000_000

    /// The addresses, ascending.
    private var addresses: [UInt32] = []
    /// Per row, the pool offset of its registration.
    private var registrations: [UInt32] = []
    /// Per row, the pool offset of its profile: type, description and year.
    private var profiles: [UInt32] = []
    /// Per row, the pool offset of its owner.
    private var owners: [UInt32] = []
    /// Per row, its flags.
    private var flags: [UInt16] = []
    /// Every value, each a 16-bit length (little-endian) and its UTF-8 bytes; offset 0 is the
    /// empty value.
    private var pool: [UInt8] = [0, 0]

    /// What was skipped while reading.
    package private(set) var problems = LoadProblems()

    /// An empty database.
    package init() {}

    /// How many aircraft it holds.
    package var count: Int { addresses.count }

    /// The record of the aircraft at `address`, if the database has it.
    package func record(for address: UInt32) -> AircraftRecord? {
        var low = 0
        var high = addresses.count
        while low < high {
            let middle = (low + high) / 2
            if addresses[middle] < address { low = middle + 1 } else { high = middle }
        }
        guard low < addresses.count, addresses[low] == address else { return nil }
        let profile = value(at: profiles[low]).split(separator: "\u{1F}", omittingEmptySubsequences: false)
        func part(_ index: Int) -> String? {
            index < profile.count && !profile[index].isEmpty ? String(profile[index]) : nil
        }
        let registration = value(at: registrations[low])
        let owner = value(at: owners[low])
        return AircraftRecord(
            registration: registration.isEmpty ? nil : registration, typeCode: part(0),
            flags: AircraftRecord.Flags(rawValue: flags[low]), description: part(1), year: part(2),
            owner: owner.isEmpty ? nil : owner)
    }

    /// The bytes it holds, about what it takes in memory.
    package var byteCount: Int { addresses.count * 14 + pool.count }

    /// The value whose length is at `offset` of the pool.
    private func value(at offset: UInt32) -> String {
        let start = Int(offset)
        let length = Int(pool[start]) | Int(pool[start + 1]) << 8
        return pool.withUnsafeBufferPointer { String(decoding: $0[(start + 2)..<(start + 2 + length)], as: UTF8.self) }
    }

    /// Reads tar1090-db's format from `bytes`: one row a line, `icao;reg;type;flags;desc;year;ownop;`,
    /// with or without the `;` after the last field and with or without a header line. Fields
    /// after the seventh are left out, as readsb leaves them. Rows that are not valid UTF-8,
    /// whose address is not six hex digits or that have fewer than seven fields are counted and
    /// skipped; of two rows with one address the first is kept; every field is cut to
    /// `AircraftRecord.Limit` bytes and cleaned as readsb cleans it (`AircraftRecord.Limit`).
    ///
    /// It reads bytes, not strings: a line becomes a string only when it is not plain ASCII
    /// (to check its UTF-8), and a field only when it is looked up in the pool's index, which
    /// keeps 600,000 rows within a couple of seconds.
    package init(csv bytes: UnsafeBufferPointer<UInt8>) {
        var builder = Builder()
        var bounds: [Int] = []
        bounds.reserveCapacity(8)
        DelimitedText.forEachLine(bytes) { line in
            guard !line.isEmpty else { return }
            if line.contains(where: { $0 >= 0x80 }), String(validating: line, as: UTF8.self) == nil {
                builder.problems.malformed += 1
                return
            }
            bounds.removeAll(keepingCapacity: true)
            bounds.append(-1)
            for index in line.indices where line[index] == UInt8(ascii: ";") { bounds.append(index) }
            bounds.append(line.count)
            let field = { (n: Int) in UnsafeBufferPointer(rebasing: line[(bounds[n] + 1)..<bounds[n + 1]]) }
            if builder.rows == 0, builder.problems.total == 0, Self.isHeader(field(0)) { return }
            guard bounds.count >= 8 else {
                builder.problems.wrongColumns += 1
                return
            }
            guard let address = Self.address(field(0)) else {
                builder.problems.malformed += 1
                return
            }
            builder.add(
                address: address, registration: field(1), type: field(2), flags: field(3), description: field(4),
                year: field(5), owner: field(6))
        }
        self = builder.finish()
    }

    /// Whether a first field is the header's `icao`.
    static func isHeader(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        String(decoding: field, as: UTF8.self).lowercased() == "icao"
    }

    /// The address of a six-hex-digit field, either case.
    static func address(_ field: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard field.count == 6 else { return nil }
        var value: UInt32 = 0
        for byte in field {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Collects rows in file order, then sorts them into a database.
    private struct Builder {
        /// What was skipped.
        var problems = LoadProblems()
        /// Rows kept so far.
        var rows = 0
        /// The rows in file order: address and pool offsets.
        var entries: [(address: UInt32, registration: UInt32, profile: UInt32, owner: UInt32, flags: UInt16)] = []
        /// The pool being written.
        var pool: [UInt8] = [0, 0]
        /// The offset of each value written once for all its rows.
        var shared: [String: UInt32] = [:]
        /// A value being put together, reused from row to row.
        var scratch: [UInt8] = []

        /// Adds one row's fields.
        mutating func add(
            address: UInt32, registration: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>,
            flags: UnsafeBufferPointer<UInt8>, description: UnsafeBufferPointer<UInt8>,
            year: UnsafeBufferPointer<UInt8>, owner: UnsafeBufferPointer<UInt8>
        ) {
            guard entries.count < AircraftDatabase.maximumRows else {
                problems.overLimit += 1
                return
            }
            rows += 1
            scratch.removeAll(keepingCapacity: true)
            Self.cut(type, AircraftRecord.Limit.typeCode, into: &scratch)
            scratch.append(0x1F)
            Self.cut(description, AircraftRecord.Limit.description, into: &scratch)
            scratch.append(0x1F)
            Self.cut(year, AircraftRecord.Limit.year, into: &scratch)
            let profile = scratch.count == 2 ? 0 : intern(scratch)
            scratch.removeAll(keepingCapacity: true)
            Self.cut(registration, AircraftRecord.Limit.registration, into: &scratch)
            let registrationOffset = append(scratch)
            scratch.removeAll(keepingCapacity: true)
            Self.cut(owner, AircraftRecord.Limit.owner, into: &scratch)
            let ownerOffset = intern(scratch)
            var bits: UInt16 = 0
            for (index, byte) in flags.prefix(16).enumerated() where byte == UInt8(ascii: "1") {
                bits |= 1 << UInt16(index)
            }
            entries.append((address, registrationOffset, profile, ownerOffset, bits))
        }

        /// Appends `field` as readsb keeps it: its first `limit` bytes, without a character
        /// the cut left incomplete, control characters as spaces and double quotes as single
        /// ones. (The field is valid UTF-8: the row was checked.)
        static func cut(_ field: UnsafeBufferPointer<UInt8>, _ limit: Int, into out: inout [UInt8]) {
            var kept = min(field.count, limit)
            if kept < field.count {
                // Back to the start of the character the cut falls in, unless it ends there.
                var start = kept
                while start > 0, field[start] & 0xC0 == 0x80 { start -= 1 }
                kept = start
            }
            for byte in field.prefix(kept) {
                switch byte {
                case 0x00..<0x20: out.append(UInt8(ascii: " "))
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "'"))
                default: out.append(byte)
                }
            }
        }

        /// The pool offset of `value`, written once however often it comes.
        mutating func intern(_ value: [UInt8]) -> UInt32 {
            if value.isEmpty { return 0 }
            let key = String(decoding: value, as: UTF8.self)
            if let offset = shared[key] { return offset }
            let offset = append(value)
            shared[key] = offset
            return offset
        }

        /// Writes `value` to the pool; returns its offset.
        mutating func append(_ value: [UInt8]) -> UInt32 {
            if value.isEmpty { return 0 }
            let offset = UInt32(pool.count)
            pool.append(UInt8(value.count & 0xFF))
            pool.append(UInt8(value.count >> 8))
            pool.append(contentsOf: value)
            return offset
        }

        /// The database: rows sorted by address, the first of each address kept.
        consuming func finish() -> AircraftDatabase {
            shared = [:]
            // tar1090-db's file comes sorted: then the order is the file's.
            var order = Array(entries.indices)
            if zip(entries, entries.dropFirst()).contains(where: { $0.address >= $1.address }) {
                order.sort { (entries[$0].address, $0) < (entries[$1].address, $1) }
            }
            var database = AircraftDatabase()
            database.addresses.reserveCapacity(entries.count)
            for index in order {
                let entry = entries[index]
                if database.addresses.last == entry.address {
                    problems.duplicates += 1
                    continue
                }
                database.addresses.append(entry.address)
                database.registrations.append(entry.registration)
                database.profiles.append(entry.profile)
                database.owners.append(entry.owner)
                database.flags.append(entry.flags)
            }
            // An exact copy: the builder's pool grew by doubling and may be half empty.
            database.pool = pool.withUnsafeBufferPointer { Array($0) }
            database.problems = problems
            return database
        }
    }
}
