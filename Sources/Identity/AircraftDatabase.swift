/// The aircraft of a database by ICAO address, held compactly: tar1090-db's `aircraft.csv`
/// (about 600,000 rows, `--db-file`) or the standing data's own aircraft table.
///
/// Each row costs four 32-bit words and a byte: its address (sorted, for a binary search),
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
    private var flags: [UInt8] = []
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
    package var byteCount: Int { addresses.count * 13 + pool.count }

    /// The value whose length is at `offset` of the pool.
    private func value(at offset: UInt32) -> String {
        let start = Int(offset)
        let length = Int(pool[start]) | Int(pool[start + 1]) << 8
        return pool.withUnsafeBufferPointer { String(decoding: $0[(start + 2)..<(start + 2 + length)], as: UTF8.self) }
    }

    /// Reads tar1090-db's format from `bytes`: one row a line, `icao;reg;type;flags;desc;year;ownop`,
    /// with or without a header line. Rows that are not valid UTF-8, whose address is not six
    /// hex digits or that do not have seven fields are counted and skipped; of two rows with
    /// one address the first is kept; every field is cut to `AircraftRecord.Limit`.
    package init(csv bytes: UnsafeBufferPointer<UInt8>) {
        var builder = Builder()
        DelimitedText.forEachLine(bytes) { line in
            guard !line.isEmpty else { return }
            guard let fields = DelimitedText.plainFields(line, separator: UInt8(ascii: ";")) else {
                builder.problems.malformed += 1
                return
            }
            if builder.rows == 0, builder.problems.total == 0, fields[0].lowercased() == "icao" { return }
            guard fields.count == 7 else {
                builder.problems.wrongColumns += 1
                return
            }
            guard let address = Self.address(fields[0]) else {
                builder.problems.malformed += 1
                return
            }
            builder.add(address: address, fields: fields)
        }
        self = builder.finish()
    }

    /// The address of a six-hex-digit field, either case.
    static func address(_ field: Substring) -> UInt32? {
        guard field.utf8.count == 6, let value = UInt32(field, radix: 16) else { return nil }
        return value
    }

    /// Collects rows in file order, then sorts them into a database.
    private struct Builder {
        var problems = LoadProblems()
        var rows = 0
        var entries: [(address: UInt32, registration: UInt32, profile: UInt32, owner: UInt32, flags: UInt8)] = []
        var pool: [UInt8] = [0, 0]
        var shared: [Substring: UInt32] = [:]

        /// Adds one row's fields.
        mutating func add(address: UInt32, fields: [Substring]) {
            guard entries.count < AircraftDatabase.maximumRows else {
                problems.overLimit += 1
                return
            }
            rows += 1
            let type = fields[2].prefix(AircraftRecord.Limit.typeCode)
            let description = fields[4].prefix(AircraftRecord.Limit.description)
            let year = fields[5].prefix(AircraftRecord.Limit.year)
            let profile: UInt32 =
                type.isEmpty && description.isEmpty && year.isEmpty
                ? 0 : intern(Substring("\(type)\u{1F}\(description)\u{1F}\(year)"))
            entries.append(
                (
                    address, append(fields[1].prefix(AircraftRecord.Limit.registration)), profile,
                    intern(fields[6].prefix(AircraftRecord.Limit.owner)),
                    AircraftRecord.Flags(field: fields[3]).rawValue
                ))
        }

        /// The pool offset of `value`, written once however often it comes.
        mutating func intern(_ value: Substring) -> UInt32 {
            if value.isEmpty { return 0 }
            if let offset = shared[value] { return offset }
            let offset = append(value)
            shared[value] = offset
            return offset
        }

        /// Writes `value` to the pool; returns its offset.
        mutating func append(_ value: Substring) -> UInt32 {
            if value.isEmpty { return 0 }
            let offset = UInt32(pool.count)
            let bytes = value.utf8
            pool.append(UInt8(bytes.count & 0xFF))
            pool.append(UInt8(bytes.count >> 8))
            pool.append(contentsOf: bytes)
            return offset
        }

        /// The database: rows sorted by address, the first of each address kept.
        consuming func finish() -> AircraftDatabase {
            shared = [:]
            var order = Array(entries.indices)
            order.sort { (entries[$0].address, $0) < (entries[$1].address, $1) }
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
